// The official TypeScript MCP SDK's client against a Giftwell server, driven
// by cmd/giftwell/tsclient_test.go, which stays in control:
//
//   GIFTWELL_MCP_URL=http://127.0.0.1:PORT/mcp node client.mjs
//
// The SDK discovers the authorization server, registers a client with a
// loopback redirect URI and sends PKCE without state, as it does by default.
// Where a browser would open, the script prints the authorization URL and
// reads the code from stdin (the Go test consents as a signed-in person).
// Then it exchanges the code, lists the tools and calls one.
//
// Every line on stdout is one JSON object: {"step": ..., ...}.
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";

const mcpURL = new URL(process.env.GIFTWELL_MCP_URL);
const redirectURL = "http://127.0.0.1:33419/callback";

const say = (step, fields = {}) => process.stdout.write(JSON.stringify({ step, ...fields }) + "\n");

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
async function readCode() {
  const { value, done } = await lines.next();
  if (done) throw new Error("stdin closed before the authorization code arrived");
  return value.trim();
}

// Every HTTP request the SDK makes, for the test to see the flow.
async function loggedFetch(input, init) {
  const res = await fetch(input, init);
  const u = new URL(input instanceof Request ? input.url : input);
  say("http", { method: init?.method ?? "GET", path: u.pathname, status: res.status });
  return res;
}

// An in-memory OAuthClientProvider without state(): the SDK sends no state.
class MemoryProvider {
  constructor() {
    this.client = undefined;
    this.savedTokens = undefined;
    this.verifier = undefined;
  }
  get redirectUrl() {
    return redirectURL;
  }
  get clientMetadata() {
    return {
      client_name: "TypeScript SDK test client",
      redirect_uris: [redirectURL],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info) {
    this.client = info;
    say("registered", { client_id: info.client_id, redirect_uris: info.redirect_uris });
  }
  tokens() {
    return this.savedTokens;
  }
  saveTokens(tokens) {
    this.savedTokens = tokens;
    say("tokens", {
      token_type: tokens.token_type,
      scope: tokens.scope,
      access_token_prefix: tokens.access_token.slice(0, tokens.access_token.indexOf("_", 4) + 1),
      has_refresh_token: Boolean(tokens.refresh_token),
    });
  }
  redirectToAuthorization(url) {
    say("authorize", { url: url.toString() });
  }
  saveCodeVerifier(v) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

const provider = new MemoryProvider();
const client = new Client({ name: "giftwell-tsclient", version: "1.0.0" });
const transport = () => new StreamableHTTPClientTransport(mcpURL, { authProvider: provider, fetch: loggedFetch });

let t = transport();
try {
  await client.connect(t);
  throw new Error("connected without authorization");
} catch (err) {
  if (!(err instanceof UnauthorizedError)) throw err;
  const code = await readCode();
  await t.finishAuth(code);
}
t = transport();
await client.connect(t);
say("connected", { server: client.getServerVersion(), protocol: t.protocolVersion });

const { tools } = await client.listTools();
say("tools", { count: tools.length, names: tools.map((x) => x.name) });

const res = await client.callTool({ name: "get_workflow_guide", arguments: {} });
const text = res.content?.find((c) => c.type === "text")?.text ?? "";
say("call", { name: "get_workflow_guide", isError: Boolean(res.isError), structured: Boolean(res.structuredContent), text: text.slice(0, 160) });

await client.close();
say("done");
process.exit(0);
