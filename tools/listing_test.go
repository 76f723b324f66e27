package tools_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/tools"
)

// TestFieldsAsPointsToAListedTool: a tool listed with another tool's
// fields (FieldsAs, DescribedBy) is listed only where that tool is too, to
// the same connections, and the fields it points to exist there.
func TestFieldsAsPointsToAListedTool(t *testing.T) {
	t.Parallel()
	all := tools.All(nil)
	byName := tools.ByName(all)
	pointed := 0
	check := func(from tools.Tool, to string) {
		ref, ok := byName[to]
		require.True(t, ok, "%s points to %s, which is not a tool", from.Name, to)
		for _, pr := range tools.Profiles {
			if from.InProfile(pr) {
				require.True(t, ref.InProfile(pr), "%s is in %s without %s", from.Name, pr, to)
			}
		}
		require.Equal(t, from.Scope.OAuth(), ref.Scope.OAuth(), "%s and %s must be visible to the same connections", from.Name, to)
		pointed++
	}
	for _, tool := range all {
		for _, f := range tool.ListedFields() {
			check(tool, f.Tool)
			prop, _, _ := strings.Cut(f.Of, " ")
			require.Contains(t, byName[f.Tool].InputSchema.Properties, prop, "%s: %s has no %s", tool.Name, f.Tool, prop)
			require.Contains(t, tool.ListedInputSchema.Properties[f.Property].Description, f.Tool, tool.Name)
		}
		if to := tool.DescribedBy(); to != "" {
			check(tool, to)
			require.Contains(t, tool.Description, to, "%s's description names %s", tool.Name, to)
		}
	}
	require.NotZero(t, pointed)
}

// TestListingKeepsEveryField: the listed input schema names every field
// the registry's does and requires the same ones; only descriptions, caps
// and the shapes FieldsAs points to elsewhere are left out.
func TestListingKeepsEveryField(t *testing.T) {
	t.Parallel()
	for _, tool := range tools.All(nil) {
		in, listed := tool.InputSchema, tool.ListedInputSchema
		require.Equal(t, in.Required, listed.Required, tool.Name)
		require.Len(t, listed.Properties, len(in.Properties), tool.Name)
		for name, p := range in.Properties {
			lp := listed.Properties[name]
			require.NotNil(t, lp, "%s.%s", tool.Name, name)
			require.Equal(t, p.Type, lp.Type, "%s.%s", tool.Name, name)
			require.Equal(t, p.Types, lp.Types, "%s.%s", tool.Name, name)
		}
	}
}
