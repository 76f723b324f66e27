package tools

import (
	"github.com/giftwell/giftwell"
)

// All returns every tool in the registry's fixed order (the order of
// TOOLS.md), the REST-only operations among them (Tool.RESTOnly). Handlers close over app; a nil app gives descriptors whose
// handlers must not be called (schema snapshots, docs, OpenAPI).
//
// Adding a tool is a one-file change: define it in the file of its subject
// and list it in that file's group function.
func All(app *giftwell.App) []Tool {
	var all []Tool
	for _, group := range groups {
		all = append(all, group(app)...)
	}
	return all
}

// groups are the files' group functions, in the registry's order.
var groups = []func(*giftwell.App) []Tool{
	catalogTools,
	campaignTools,
	recipientTools,
	artworkTools,
	queueWriteTools,
	settingsTools,
	queueReadTools,
	balanceTools,
	sendTools,
	trackingTools,
	outcomeTools,
	importTools,
	reportTools,
	distributionTools,
	giftLinkTools,
	refundTools,
	quoteTools,
	billingTools,
	teamTools,
	webhookTools,
	workspaceTools,
	retiredTools,
	webhookSignedInTools,
	billingSignedInTools,
}

// ByName returns the tools of list indexed by name.
func ByName(list []Tool) map[string]Tool {
	m := make(map[string]Tool, len(list))
	for _, t := range list {
		m[t.Name] = t
	}
	return m
}

// ForProfile returns the tools of list listed in profile pr, in order.
func ForProfile(list []Tool, pr Profile) []Tool {
	var out []Tool
	for _, t := range list {
		if t.InProfile(pr) {
			out = append(out, t)
		}
	}
	return out
}
