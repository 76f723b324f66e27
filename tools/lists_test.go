package tools_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/tools"
)

type listsInner struct {
	Tags []string `json:"tags"`
}

type listsOuter struct {
	Names   []string              `json:"names"`
	Inner   *listsInner           `json:"inner"`
	Items   []listsInner          `json:"items"`
	ByName  map[string][]int      `json:"byName"`
	Any     any                   `json:"any"`
	Bytes   []byte                `json:"bytes"`
	Raw     json.RawMessage       `json:"raw,omitempty"`
	Skipped []string              `json:"skipped,omitzero"`
	Kept    []listsInner          `json:"kept,omitzero"`
	Omitted []string              `json:"omitted,omitempty"`
	Nested  map[string]listsInner `json:"nested"`
}

func TestEmptyListsWritesEveryNilSliceAsEmpty(t *testing.T) {
	t.Parallel()
	shared := &listsInner{}
	in := listsOuter{
		Inner:  shared,
		Items:  []listsInner{{}, {Tags: []string{"a"}}},
		ByName: map[string][]int{"x": nil},
		Any:    listsInner{},
		Kept:   []listsInner{{}},
		Nested: map[string]listsInner{"k": {}},
	}
	out := tools.EmptyLists(in)
	raw, err := json.Marshal(out)
	require.NoError(t, err)
	require.JSONEq(t, `{"names":[],"inner":{"tags":[]},"items":[{"tags":[]},{"tags":["a"]}],
		"byName":{"x":[]},"any":{"tags":[]},"bytes":null,"kept":[{"tags":[]}],"nested":{"k":{"tags":[]}}}`, string(raw))
	require.Nil(t, shared.Tags, "what the payload shares is not changed")
	require.Nil(t, in.Items[0].Tags, "the payload itself is not changed")

	require.Equal(t, []string{}, tools.EmptyLists([]string(nil)))
	require.Nil(t, tools.EmptyLists(nil))
	same := &listsInner{Tags: []string{"b"}}
	require.Same(t, same, tools.EmptyLists(same), "a payload with no nil list is returned as it is")
}
