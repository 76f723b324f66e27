package core

import (
	"bytes"
	"context"
	"encoding/csv"
	"strconv"
	"time"
)

// ActivityCSVHeader is the first line of the Activity download: when, who
// (their kind, name and the person behind them, and for the rule its
// version), what happened in words, and what it was about.
var ActivityCSVHeader = []string{"at", "actor_kind", "actor", "actor_email", "rule_version", "action", "activity",
	"campaign", "recipient", "amount_usd", "mode", "campaign_id", "send_id"}

// ActivityCSV is every action of p's workspace the filter keeps (up to
// MaxActivityExport, newest first; the cursor is ignored) as a CSV
// document whose every cell passes CSVCell, so no cell runs as a formula.
// It returns the codes of ReadActivity.
func (a *Kernel) ActivityCSV(ctx context.Context, p Principal, f ActivityFilter) ([]byte, error) {
	items, err := a.ExportActivity(ctx, p, f)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write(ActivityCSVHeader)
	for _, x := range items {
		version := ""
		if x.Actor.RuleVersion > 0 {
			version = strconv.FormatInt(x.Actor.RuleVersion, 10)
		}
		amount := ""
		if x.AmountCents > 0 {
			amount = strconv.FormatFloat(float64(x.AmountCents)/100, 'f', 2, 64)
		}
		row := []string{x.At.Format(time.RFC3339), x.Actor.KindWords(), x.Actor.Words(), x.Actor.Email, version, string(x.Kind), x.Sentence(),
			x.CampaignName, x.Recipient, amount, string(x.Mode), x.CampaignID, x.SendID}
		for i, c := range row {
			row[i] = CSVCell(c)
		}
		_ = w.Write(row)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return nil, Internal(err)
	}
	return buf.Bytes(), nil
}
