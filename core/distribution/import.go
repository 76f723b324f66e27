package distribution

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/sql/db"
)

// personMention matches campaign.AddImported's mention of another person
// of the import in a problem's message, which the summary names by row.
var personMention = regexp.MustCompile(`recipients\[(\d+)\]`)

// ImportRequest is what save_recipient_import takes besides the campaign:
// the CSV as headers and rows, or a completed chunked upload.
type ImportRequest struct {
	ImportID              string     `json:"importId" jsonschema:"your ID for this import (letters, digits, _ - .); people get it as importId, and each row its number as importRowId" schema:"minLength=1,maxLength=100"`
	Headers               []string   `json:"headers,omitempty" jsonschema:"the CSV's column names, without uploadId" schema:"maxItems=100,items.maxLength=200"`
	RetainedColumnIndices []int      `json:"retainedColumnIndices,omitempty" jsonschema:"columns (0-based) kept for original-preset exports; all when left out" schema:"maxItems=100,items.minimum=0,items.maximum=99"`
	Rows                  [][]string `json:"rows,omitempty" jsonschema:"the rows, one string per header, without uploadId" schema:"maxItems=500,items.maxItems=100"`
	UploadID              string     `json:"uploadId,omitempty" jsonschema:"a complete upload_gift_source_chunk upload of the CSV (first line: the headers) instead of headers and rows" schema:"maxLength=100"`
	Fields                []string   `json:"fields,omitempty" jsonschema:"optional mapping, one per header: name, first_name, last_name, email, company, title, source_system, external_id, message, custom_tag, photo_url, linkedin_url, adult_recipient_confirmed, address fields, detail:<key> or ignore; empty: by the header's own name" schema:"maxItems=100,items.maxLength=100"`
	RightsConfirmed       bool       `json:"rightsConfirmed,omitempty" jsonschema:"true: the user confirmed they may use the photos the rows' photo_url links to; only then, for a gift that requires a portrait, each link is fetched as import_recipient_photo does and wins over the LinkedIn profile"`
}

// ImportCounts counts an import's rows.
type ImportCounts struct {
	Rows            int `json:"rows" jsonschema:"rows in the CSV"`
	Added           int `json:"added" jsonschema:"rows added as roster people"`
	AlreadyOnRoster int `json:"alreadyOnRoster" jsonschema:"rows matching someone already on the roster, left as they are"`
	Problems        int `json:"problems" jsonschema:"rows left out (see problems)"`
	Blank           int `json:"blank" jsonschema:"empty rows, ignored"`
}

// RowProblem is one row's problem (left out) or notice (added anyway).
type RowProblem struct {
	Row         int       `json:"row" jsonschema:"the row's number (1 is the first row after the headers)"`
	ImportRowID string    `json:"importRowId" jsonschema:"the row's importRowId"`
	Code        core.Code `json:"code,omitempty" jsonschema:"the code add_recipients would give; absent on notices"`
	Fields      []string  `json:"fields,omitempty" jsonschema:"the recipient fields at fault"`
	Message     string    `json:"message" jsonschema:"what is wrong"`
}

// ImportSummary is a finished import: save_recipient_import's and
// remove_recipient_source_columns' answer.
type ImportSummary struct {
	ImportID              string       `json:"importId" jsonschema:"the import"`
	CampaignID            string       `json:"campaignId" jsonschema:"its campaign"`
	Status                string       `json:"status" jsonschema:"finished: source columns may now be removed" schema:"enum=finished"`
	Headers               []string     `json:"headers" jsonschema:"the CSV's column names"`
	Fields                []string     `json:"fields" jsonschema:"the recipient field each column filled (ignore: none)"`
	RetainedColumnIndices []int        `json:"retainedColumnIndices" jsonschema:"columns kept for original-preset exports"`
	RemovedColumnIndices  []int        `json:"removedColumnIndices" jsonschema:"columns removed since"`
	Counts                ImportCounts `json:"counts" jsonschema:"what became of the rows"`
	Problems              []RowProblem `json:"problems" jsonschema:"rows left out, and why"`
	Notices               []RowProblem `json:"notices" jsonschema:"rows added with something not done: an optional field whose value was refused (the row was added without it; row, fields and message say which and why), or a photo not imported"`
	CreatedAt             string       `json:"createdAt" jsonschema:"when it was imported (RFC 3339)"`
	UpdatedAt             string       `json:"updatedAt" jsonschema:"when it last changed (RFC 3339)"`
}

// SaveImport imports a source CSV into campaign campaignID's roster: each
// row becomes a roster person through add_recipients' rules
// (campaign.AddImported) with importId and importRowId; rows those rules
// refuse are left out and listed (problems); a row whose only refused cells
// are optional fields (a LinkedIn URL, an email, a company, a title, a
// gift detail, adult_recipient_confirmed) is added without them and listed
// as a notice (row, fields, message); everything is written in one
// transaction. Saving an importId again with the same content answers the
// first summary. It returns VALIDATION_ERROR naming importId (used for
// other content), uploadId (unknown, unfinished, another campaign's, not a
// CSV), headers, headers[j], rows (more than 500 in the campaign), rows[i],
// rows[i][j] (over 10,000 characters, a formula), retainedColumnIndices[k]
// or fields[j]; DEMO_LIMITED; NOT_FOUND naming id; CAMPAIGN_COMPLETED; the
// codes of campaign.AddImported; or those of Authorize (ActAddPeople).
func (s *Service) SaveImport(ctx context.Context, p core.Principal, campaignID string, in ImportRequest) (ImportSummary, error) {
	if err := authorizeImport(p); err != nil {
		return ImportSummary{}, err
	}
	if err := checkID("importId", in.ImportID); err != nil {
		return ImportSummary{}, err
	}
	c, err := s.openCampaign(ctx, p, campaignID)
	if err != nil {
		return ImportSummary{}, err
	}
	t, err := s.table(ctx, p, campaignID, in)
	if err != nil {
		return ImportSummary{}, err
	}
	retained, err := checkRetained(in.RetainedColumnIndices, len(t.headers))
	if err != nil {
		return ImportSummary{}, err
	}
	details, portrait := s.giftDetails(ctx, c.ProductID)
	fields, err := mapColumns(t.headers, in.Fields, details)
	if err != nil {
		return ImportSummary{}, err
	}
	digest := digestOf(t, retained, fields)
	if prev, found, err := s.storedImport(ctx, p.WorkspaceID, campaignID, in.ImportID, digest); found || err != nil {
		return prev, err
	}

	now := s.Clock.Now()
	sum := ImportSummary{ImportID: in.ImportID, CampaignID: campaignID, Status: "finished", Headers: t.headers, Fields: fields,
		RetainedColumnIndices: retained, RemovedColumnIndices: []int{}, Problems: []RowProblem{}, Notices: []RowProblem{},
		CreatedAt: now.UTC().Format(time.RFC3339), UpdatedAt: now.UTC().Format(time.RFC3339)}
	sum.Counts.Rows = len(t.rows)
	var (
		people []campaign.RecipientInput
		rowOf  []int // people[k] is row rowOf[k]
		stored []int // the rows kept (not blank)
	)
	photoURLs := map[int]string{} // people[k]'s photo URL, to fetch
	for i, row := range t.rows {
		if blank(row) {
			sum.Counts.Blank++
			continue
		}
		stored = append(stored, i)
		id := strconv.Itoa(i + 1)
		person, notice, photoURL := personOf(row, fields, in.ImportID, id, portrait)
		if notice != nil {
			sum.Notices = append(sum.Notices, RowProblem{Row: i + 1, ImportRowID: id, Fields: notice.fields, Message: notice.message})
		}
		if photoURL != "" {
			photoURLs[len(people)] = photoURL
		}
		people = append(people, person)
		rowOf = append(rowOf, i)
	}
	if len(photoURLs) > 0 {
		if err := s.checkRowRoom(ctx, p.WorkspaceID, campaignID, len(stored)); err != nil {
			return ImportSummary{}, err
		}
		urls := make([]string, 0, len(photoURLs))
		for k := range people {
			if u, ok := photoURLs[k]; ok {
				urls = append(urls, u)
			}
		}
		got := s.importPhotos(ctx, p, urls, in.RightsConfirmed)
		for k := range people {
			u, ok := photoURLs[k]
			if !ok {
				continue
			}
			if n := withPhoto(&people[k], got[u]); n != nil {
				i := rowOf[k]
				sum.Notices = append(sum.Notices, RowProblem{Row: i + 1, ImportRowID: strconv.Itoa(i + 1), Fields: n.fields, Message: n.message})
			}
		}
	}

	recipientOf := make(map[int]string, len(people))
	err = s.inCallerTx(ctx, func(ctx context.Context, q *db.Queries) error {
		res, err := s.Campaigns.AddImported(ctx, p, campaignID, people)
		if err != nil {
			return err
		}
		if err := rowRoom(ctx, q, p.WorkspaceID, campaignID, len(stored)); err != nil {
			return err
		}
		for k, id := range res.RecipientIDs {
			recipientOf[rowOf[k]] = id
		}
		sum.Counts.Added, sum.Counts.AlreadyOnRoster = len(res.Added), len(res.Skipped)
		for _, pr := range res.Problems {
			i := rowOf[pr.Index]
			msg := personMention.ReplaceAllStringFunc(pr.Message, func(m string) string {
				k, _ := strconv.Atoi(personMention.FindStringSubmatch(m)[1])
				if k < len(rowOf) {
					return "row " + strconv.Itoa(rowOf[k]+1)
				}
				return m
			})
			sum.Problems = append(sum.Problems, RowProblem{Row: i + 1, ImportRowID: strconv.Itoa(i + 1), Code: pr.Code, Fields: pr.Fields, Message: msg})
		}
		for _, n := range res.Notices {
			i := rowOf[n.Index]
			sum.Notices = append(sum.Notices, RowProblem{Row: i + 1, ImportRowID: strconv.Itoa(i + 1), Fields: n.Fields, Message: n.Message + addedWithout})
		}
		sum.Problems, sum.Notices = foldRowNotices(sum.Problems, sum.Notices)
		sum.Counts.Problems = len(sum.Problems)
		return s.writeImport(ctx, q, p.WorkspaceID, in, t, stored, recipientOf, digest, sum, now)
	})
	if err != nil {
		return ImportSummary{}, err
	}
	return sum, nil
}

// rowRoom refuses, naming rows, an import whose adding rows would take
// campaign campaignID past MaxImportRows imported rows.
func rowRoom(ctx context.Context, q *db.Queries, workspaceID, campaignID string, adding int) error {
	n, err := q.RecipientImportRowCount(ctx, db.RecipientImportRowCountParams{WorkspaceID: workspaceID, CampaignID: campaignID})
	if err != nil {
		return core.Internal(err)
	}
	if int(n)+adding > MaxImportRows {
		return core.Invalid("rows", "the campaign already holds %d imported rows; with these %d it would pass %d", n, adding, MaxImportRows)
	}
	return nil
}

// checkRowRoom is rowRoom read before the import's transaction, so an
// import the transaction would refuse fetches no photos; the transaction
// checks again.
func (s *Service) checkRowRoom(ctx context.Context, workspaceID, campaignID string, adding int) error {
	return s.ReadTx(ctx, func(q *db.Queries) error { return rowRoom(ctx, q, workspaceID, campaignID, adding) })
}

// writeImport records the import, its rows and their people, and drops
// the upload it came from.
func (s *Service) writeImport(ctx context.Context, q *db.Queries, workspaceID string, in ImportRequest, t sourceTable, stored []int,
	recipientOf map[int]string, digest string, sum ImportSummary, now time.Time) error {
	raw, err := json.Marshal(sum)
	if err != nil {
		return core.Internal(err)
	}
	err = q.RecipientImportInsert(ctx, db.RecipientImportInsertParams{WorkspaceID: workspaceID, CampaignID: sum.CampaignID, ID: in.ImportID,
		Headers: t.headers, Retained: int32s(sum.RetainedColumnIndices), Digest: digest, Summary: raw, CreatedAt: now})
	if _, dup := core.ViolatedUnique(err); dup {
		return core.Invalid("importId", "was saved by another request just now; read the campaign, or resend to get that import's summary")
	}
	if err != nil {
		return core.AsCoreError(err)
	}
	for _, i := range stored {
		err := q.RecipientImportRowInsert(ctx, db.RecipientImportRowInsertParams{WorkspaceID: workspaceID, CampaignID: sum.CampaignID,
			ImportID: in.ImportID, RowID: strconv.Itoa(i + 1), Position: int32(i), Cells: t.rows[i], RecipientID: recipientOf[i]})
		if err != nil {
			return core.AsCoreError(err)
		}
	}
	if in.UploadID != "" {
		return core.AsCoreError(q.SourceUploadDelete(ctx, db.SourceUploadDeleteParams{WorkspaceID: workspaceID, ID: in.UploadID}))
	}
	return nil
}

// inCallerTx runs fn in one transaction that core methods joining the
// caller's transaction (campaign.AddImported) join too.
func (s *Service) inCallerTx(ctx context.Context, fn func(ctx context.Context, q *db.Queries) error) error {
	txCtx, err := s.BeginTx(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = s.RollbackTx(txCtx) }()
	if err := fn(txCtx, db.New(s.Conn(txCtx))); err != nil {
		return err
	}
	return s.CommitTx(txCtx)
}

// table is the import's CSV: headers and rows, or the upload's.
func (s *Service) table(ctx context.Context, p core.Principal, campaignID string, in ImportRequest) (sourceTable, error) {
	if in.UploadID == "" {
		if len(in.Headers) == 0 {
			return sourceTable{}, core.Invalid("headers", "are required (with rows), or give uploadId")
		}
		t := sourceTable{headers: in.Headers, rows: in.Rows}
		return t, t.check()
	}
	if in.Headers != nil || in.Rows != nil {
		return sourceTable{}, core.Invalid("uploadId", "comes instead of headers and rows, not with them")
	}
	if err := checkID("uploadId", in.UploadID); err != nil {
		return sourceTable{}, err
	}
	var raw []byte
	err := s.ReadTx(ctx, func(q *db.Queries) error {
		up, err := q.SourceUploadGet(ctx, db.SourceUploadGetParams{WorkspaceID: p.WorkspaceID, ID: in.UploadID})
		switch {
		case core.IsNoRows(err) || (err == nil && (up.CampaignID != campaignID || !s.Clock.Now().Before(up.ExpiresAt))):
			return core.Invalid("uploadId", "is no upload of this campaign (unknown, expired or another campaign's); upload the CSV with upload_gift_source_chunk first")
		case err != nil:
			return core.Internal(err)
		case up.CompletedAt == nil:
			return core.Invalid("uploadId", "is not complete yet; send every part until upload_gift_source_chunk answers complete: true")
		}
		parts, err := q.SourceUploadParts(ctx, db.SourceUploadPartsParams{WorkspaceID: p.WorkspaceID, UploadID: up.ID})
		if err != nil {
			return core.Internal(err)
		}
		raw, err = assemble(parts, int(up.PartCount), up.TotalBytes)
		return err
	})
	if err != nil {
		return sourceTable{}, err
	}
	return readSourceCSV("uploadId", raw)
}

// storedImport answers a resent import: the stored summary when importID
// was saved with the same content; VALIDATION_ERROR naming importId when
// with other content; found false when it is new.
func (s *Service) storedImport(ctx context.Context, workspaceID, campaignID, importID, digest string) (ImportSummary, bool, error) {
	var (
		sum   ImportSummary
		found bool
	)
	err := s.ReadTx(ctx, func(q *db.Queries) error {
		imp, err := q.RecipientImportGet(ctx, db.RecipientImportGetParams{WorkspaceID: workspaceID, CampaignID: campaignID, ID: importID})
		if core.IsNoRows(err) {
			return nil
		}
		if err != nil {
			return core.Internal(err)
		}
		if imp.Digest != digest {
			return core.Invalid("importId", "was already used for another import of this campaign; choose a new importId")
		}
		found = true
		return core.AsCoreError(json.Unmarshal(imp.Summary, &sum))
	})
	return sum, found || err != nil, err
}

// checkRetained checks retainedColumnIndices against n columns: absent
// means all; otherwise distinct positions below n, returned sorted.
func checkRetained(indices []int, n int) ([]int, error) {
	if indices == nil {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	seen := map[int]bool{}
	for k, i := range indices {
		if i < 0 || i >= n {
			return nil, core.Invalid(fmt.Sprintf("retainedColumnIndices[%d]", k), "must be a column position from 0 to %d", n-1)
		}
		if seen[i] {
			return nil, core.Invalid(fmt.Sprintf("retainedColumnIndices[%d]", k), "repeats column %d", i)
		}
		seen[i] = true
	}
	out := slices.Clone(indices)
	slices.Sort(out)
	return out, nil
}

// digestOf is a digest of what an import imports.
func digestOf(t sourceTable, retained []int, fields []string) string {
	raw, _ := json.Marshal([]any{t.headers, t.rows, retained, fields}) // cannot fail: strings and ints
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

// int32s converts positions for the database.
func int32s(v []int) []int32 {
	out := make([]int32, len(v))
	for i, x := range v {
		out[i] = int32(x)
	}
	return out
}
