package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/giftwell/giftwell/core"
)

// A queue form answers with a redirect to the queue page (post, redirect,
// get), and the page then says what the form did: how many people it
// approved, skipped or unskipped, and each refusal with core's message.
// Those messages are not fixed texts, so they cannot travel as ?done=;
// they travel in a short-lived cookie signed with the session's token, so
// only this server, for this session, can have written it.

// queueFlashCookie is the cookie holding the flash until the page shows it.
const queueFlashCookie = "giftwell_queue_flash"

// queueFlashSeconds is how long an unshown flash lives.
const queueFlashSeconds = 120

// maxQueueFlashBytes bounds the cookie's value; failures beyond it are counted, not listed.
const maxQueueFlashBytes = 3000

// queueFlashContext separates this MAC from any other use of the token.
const queueFlashContext = "giftwell queue flash\n"

// queueFlash is what one queue form did.
type queueFlash struct {
	Action queueAction `json:"a"`
	// Scope is the queue page the form was on ("" = the workspace).
	Scope string `json:"q"`
	// Done counts the people the action succeeded for.
	Done int `json:"n,omitempty"`
	// Failed are the people it did not succeed for, in the form's order.
	Failed []queueFailure `json:"f,omitempty"`
	// More counts failures left out to keep the cookie small.
	More int `json:"m,omitempty"`
	// Problem is why the form itself was refused before anyone was decided.
	Problem string `json:"p,omitempty"`
	// Names are the first people decided, to say whom; Cents is what the
	// approved gifts took from the balance.
	Names []string `json:"w,omitempty"`
	Cents int64    `json:"c,omitempty"`
	// Text, when set, is the whole summary (a group decision's).
	Text string `json:"s,omitempty"`
}

// flashNames is how many people a flash names before "and n more".
const flashNames = 3

// decided records one more person the action succeeded for.
func (f *queueFlash) decided(name string, cents int64) {
	f.Done++
	f.Cents += cents
	if len(f.Names) < flashNames && name != "" {
		f.Names = append(f.Names, name)
	}
}

// whom is "Ana Diaz", "Ana Diaz and Bo Li" or "Ana Diaz, Bo Li, Cy Ng and 4 more".
func (f queueFlash) whom() string {
	names := f.Names
	more := f.Done - len(names)
	switch {
	case len(names) == 0:
		return ""
	case more > 0:
		return fmt.Sprintf("%s and %d more", strings.Join(names, ", "), more)
	case len(names) == 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// done is the summary's first clause: who was decided and, for
// approvals, how much came from the balance.
func (f queueFlash) done(verb string) string {
	whom := f.whom()
	if f.Action == queueApprove {
		gifts := plural(f.Done, "gift", "gifts")
		if whom != "" {
			gifts += " for " + whom
		}
		return fmt.Sprintf("%s %s, %s from the balance", verb, gifts, core.Dollars(f.Cents))
	}
	if whom == "" {
		whom = plural(f.Done, "person", "people")
	}
	return verb + " " + whom
}

// queueFailure is one person the action failed for.
type queueFailure struct {
	CampaignID  string `json:"c"`
	RecipientID string `json:"r"`
	// Message is core's message as the web app shows it (problemFor).
	Message string `json:"e"`
	// TopUp is set for INSUFFICIENT_BALANCE: the page links to the balance.
	TopUp bool `json:"t,omitempty"`
}

// putQueueFlash stores flash for the next queue page of session s.
func (h *handler) putQueueFlash(w http.ResponseWriter, s session, flash queueFlash) {
	value := signQueueFlash(s.Token, flash)
	for len(value) > maxQueueFlashBytes && len(flash.Failed) > 0 {
		flash.Failed = flash.Failed[:len(flash.Failed)-1]
		flash.More++
		value = signQueueFlash(s.Token, flash)
	}
	http.SetCookie(w, &http.Cookie{
		Name: queueFlashCookie, Value: value, Path: "/", MaxAge: queueFlashSeconds,
		HttpOnly: true, Secure: h.secureCookies, SameSite: http.SameSiteLaxMode,
	})
}

// takeQueueFlash returns the flash stored for the queue page scope and
// clears the cookie; nil when there is none, it is not this session's, or
// it belongs to another queue page.
func (h *handler) takeQueueFlash(w http.ResponseWriter, r *http.Request, s session, scope string) *queueFlash {
	c, err := r.Cookie(queueFlashCookie)
	if err != nil {
		return nil
	}
	http.SetCookie(w, &http.Cookie{
		Name: queueFlashCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, Secure: h.secureCookies, SameSite: http.SameSiteLaxMode,
	})
	flash, ok := openQueueFlash(s.Token, c.Value)
	if !ok || flash.Scope != scope {
		return nil
	}
	return &flash
}

// signQueueFlash encodes flash as base64url(JSON) "." base64url(MAC).
func signQueueFlash(token string, flash queueFlash) string {
	payload, err := json.Marshal(flash)
	if err != nil {
		panic(err) // the flash is strings, numbers and booleans
	}
	enc := base64.RawURLEncoding
	return enc.EncodeToString(payload) + "." + enc.EncodeToString(queueFlashMAC(token, payload))
}

// openQueueFlash checks value's MAC against token and decodes it.
func openQueueFlash(token, value string) (queueFlash, bool) {
	enc := base64.RawURLEncoding
	p, m, ok := strings.Cut(value, ".")
	if !ok {
		return queueFlash{}, false
	}
	payload, err := enc.DecodeString(p)
	if err != nil {
		return queueFlash{}, false
	}
	mac, err := enc.DecodeString(m)
	if err != nil || !hmac.Equal(mac, queueFlashMAC(token, payload)) {
		return queueFlash{}, false
	}
	var flash queueFlash
	if err := json.Unmarshal(payload, &flash); err != nil {
		return queueFlash{}, false
	}
	return flash, true
}

func queueFlashMAC(token string, payload []byte) []byte {
	m := hmac.New(sha256.New, []byte(token))
	m.Write([]byte(queueFlashContext))
	m.Write(payload)
	return m.Sum(nil)
}

// queueNotice is the flash as the queue page shows it.
type queueNotice struct {
	// Summary is the first sentence: "Approved 2; 1 could not be approved:".
	Summary string
	// Failures are the refusals, people with the same message together.
	Failures []queueFailureGroup
	// More says how many refusals are not listed, or is "".
	More string
	// Failed is set when anything failed: the notice is an error.
	Failed bool
}

// queueFailureGroup is the people one message refused.
type queueFailureGroup struct {
	// Names are the people's names (their ID when the page no longer lists them).
	Names   string
	Message string
	// TopUp links to the balance page.
	TopUp bool
}

// queueVerbs are each action's verbs: the summary's and the refusal's.
var queueVerbs = map[queueAction][2]string{
	queueApprove: {"Approved", "approved"},
	queueSkip:    {"Skipped", "skipped"},
	queueUnskip:  {"Unskipped", "unskipped"},
}

// notice builds what the page shows of the flash, naming people from the
// page's own lists.
func (f queueFlash) notice(d queueData) *queueNotice {
	if f.Problem != "" {
		return &queueNotice{Summary: f.Problem, Failed: true}
	}
	verbs, ok := queueVerbs[f.Action]
	if !ok {
		return nil
	}
	failed := len(f.Failed) + f.More
	n := &queueNotice{Failed: failed > 0}
	switch {
	case f.Text != "":
		n.Summary = f.Text
	case failed == 0:
		n.Summary = f.done(verbs[0]) + "."
	case f.Done == 0:
		n.Summary = fmt.Sprintf("%d could not be %s:", failed, verbs[1])
	default:
		n.Summary = fmt.Sprintf("%s; %d could not be %s:", f.done(verbs[0]), failed, verbs[1])
	}
	if f.More > 0 {
		n.More = fmt.Sprintf("%d more not listed here.", f.More)
	}
	names := map[queuePerson]string{}
	for _, it := range d.Items {
		names[queuePerson{it.CampaignID, it.RecipientID}] = it.Recipient.Name
	}
	for _, it := range d.Skipped {
		names[queuePerson{it.CampaignID, it.RecipientID}] = it.Recipient.Name
	}
	index := map[queueFailure]int{}
	for _, fl := range f.Failed {
		name := names[queuePerson{fl.CampaignID, fl.RecipientID}]
		if name == "" {
			name = fl.RecipientID
		}
		if name == "" {
			name = "(no person named)"
		}
		key := queueFailure{Message: fl.Message, TopUp: fl.TopUp}
		if i, ok := index[key]; ok {
			n.Failures[i].Names += ", " + name
			continue
		}
		index[key] = len(n.Failures)
		n.Failures = append(n.Failures, queueFailureGroup{Names: name, Message: fl.Message, TopUp: fl.TopUp})
	}
	return n
}
