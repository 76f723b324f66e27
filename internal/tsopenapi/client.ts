// A REST client written against the types openapi-typescript generates
// from docs/openapi.json (api.d.ts, written by rest/tsopenapi_test.go). It
// is only type-checked (tsc --noEmit): lists must be plain arrays, with no
// `| null` to narrow away and no casts.
import type { paths } from "./api.js";

type JSONBody<Op> = Op extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;
type Data<Op, Status extends number> = Op extends { responses: { [S in Status]: { content: { "application/json": { data: infer D } } } } } ? D : never;

type CreateCampaign = paths["/campaigns"]["post"];
type AddToPlaybook = paths["/playbooks/{id}/people"]["post"];
type ListQueue = paths["/queue"]["get"];
type GetSend = paths["/sends/{id}"]["get"];

/** send calls the API and returns the payload inside {data}. */
async function send<D>(base: string, key: string, method: string, path: string, body?: unknown): Promise<D> {
  const res = await fetch(base + path, {
    method,
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const json: { data: D } = await res.json();
  return json.data;
}

export async function run(base: string, key: string): Promise<string[]> {
  const playbook: JSONBody<CreateCampaign> = {
    name: "New customers",
    mode: "always_on",
    productId: "prod_mug",
    senderName: "Ada",
    senderCompany: "Acme",
  };
  const created = await send<Data<CreateCampaign, 201>>(base, key, "POST", "/campaigns", playbook);

  const person: JSONBody<AddToPlaybook> = { recipient: { name: "Grace Hopper", email: "grace@example.com" } };
  const added = await send<Data<AddToPlaybook, 200>>(base, key, "POST", `/playbooks/${created.id}/people`, person);
  const blockers: string[] = added.blockers ?? [];

  const queue = await send<Data<ListQueue, 200>>(base, key, "GET", "/queue");
  const waiting: string[] = queue.map((item) => `${item.recipient.name}: ${item.blockers.join(", ")}`);

  const gift = await send<Data<GetSend, 200>>(base, key, "GET", "/sends/send_example");
  const states: string[] = gift.shippingStates ?? [];
  const roster: number = created.recipients?.length ?? 0;

  return [...blockers, ...waiting, ...states, `${gift.status} ${roster}`];
}
