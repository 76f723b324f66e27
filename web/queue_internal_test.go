package web

import (
	"fmt"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestQueuePeopleReadsBothFormShapes(t *testing.T) {
	t.Parallel()
	people, problem := queuePeople(url.Values{
		"person":       {"cmp_a/rcp_1", "cmp_b/rcp_2", "cmp_a/rcp_1"},
		"campaign_id":  {"cmp_c", " cmp_b "},
		"recipient_id": {"rcp_3", "rcp_2"},
	})
	require.Empty(t, problem)
	require.Equal(t, []queuePerson{{"cmp_a", "rcp_1"}, {"cmp_b", "rcp_2"}, {"cmp_c", "rcp_3"}}, people, "form order, without repeats")

	_, problem = queuePeople(url.Values{"campaign_id": {"cmp_a", "cmp_b"}, "recipient_id": {"rcp_1"}})
	require.Contains(t, problem, "do not pair up")
	_, problem = queuePeople(url.Values{})
	require.Contains(t, problem, "Tick at least one person")

	many := url.Values{}
	for i := range 101 {
		many.Add("person", fmt.Sprintf("cmp_a/rcp_%d", i))
	}
	_, problem = queuePeople(many)
	require.Equal(t, "Choose at most 100 people at a time; nothing was changed.", problem)
	many.Del("person")
	for i := range 100 {
		many.Add("person", fmt.Sprintf("cmp_a/rcp_%d", i))
	}
	people, problem = queuePeople(many)
	require.Empty(t, problem)
	require.Len(t, people, 100)
}

func TestQueueFlashRoundTripsOnlyWithItsToken(t *testing.T) {
	t.Parallel()
	f := queueFlash{Action: queueApprove, Scope: "cmp_a", Done: 2, Failed: []queueFailure{{CampaignID: "cmp_a", RecipientID: "rcp_1", Message: "No.", TopUp: true}}}
	v := signQueueFlash("token-1", f)
	got, ok := openQueueFlash("token-1", v)
	require.True(t, ok)
	require.Equal(t, f, got)
	_, ok = openQueueFlash("token-2", v)
	require.False(t, ok)
	for _, bad := range []string{"", ".", "x.y", v + "A", "A" + v} {
		_, ok = openQueueFlash("token-1", bad)
		require.False(t, ok, bad)
	}

	n := got.notice(queueData{})
	require.Equal(t, "Approved 2 gifts, $0.00 from the balance; 1 could not be approved:", n.Summary)
	require.Equal(t, []queueFailureGroup{{Names: "rcp_1", Message: "No.", TopUp: true}}, n.Failures, "a person the page no longer lists is named by ID")
}

func TestQueueFlashCountsWhatDoesNotFitTheCookie(t *testing.T) {
	t.Parallel()
	f := queueFlash{Action: queueSkip, Scope: ""}
	for i := range 100 {
		f.Failed = append(f.Failed, queueFailure{CampaignID: "cmp_a", RecipientID: fmt.Sprintf("rcp_%03d", i), Message: fmt.Sprintf("Message %03d that is long enough to matter.", i)})
	}
	rec := httptest.NewRecorder()
	(&handler{}).putQueueFlash(rec, session{Token: "t"}, f)
	cookies := rec.Result().Cookies()
	require.Len(t, cookies, 1)
	require.LessOrEqual(t, len(cookies[0].Value), maxQueueFlashBytes)
	got, ok := openQueueFlash("t", cookies[0].Value)
	require.True(t, ok)
	require.NotEmpty(t, got.Failed)
	require.Equal(t, 100, len(got.Failed)+got.More, "every failure is listed or counted")
	require.Equal(t, f.Failed[:len(got.Failed)], got.Failed, "the first ones are listed")
	n := got.notice(queueData{})
	require.Equal(t, "100 could not be skipped:", n.Summary)
	require.Equal(t, fmt.Sprintf("%d more not listed here.", got.More), n.More)
}
