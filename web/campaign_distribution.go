package web

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/distribution"
)

// importForm is the campaign page's import form: one CSV of at most
// distribution.MaxImportBytes.
var importForm = fileForm{field: "csv", maxBytes: distribution.MaxImportBytes, notRead: "imported",
	tooLarge: "A list holds at most 5 MB. Split it and import each part."}

// downloadLinks answers the campaign page's "Download links (CSV)": an
// export of every person's link in the chosen preset (export_gift_links),
// downloaded at once (download_gift_link_export) as an attachment.
func (h *handler) downloadLinks(w http.ResponseWriter, r *http.Request, s session) {
	if !h.parseForm(w, r) {
		return
	}
	ctx, id := r.Context(), r.PathValue("id")
	in := distribution.ExportRequest{Scope: distribution.ScopeAll, Preset: distribution.Preset(r.PostForm.Get("preset")),
		IncludeUnavailable: r.PostForm.Get("includeUnavailable") == "true"}
	exp, err := h.app.Distribution.ExportGiftLinks(ctx, s.Principal, id, in)
	var f distribution.ExportFile
	if err == nil {
		f, err = h.app.Distribution.DownloadExport(ctx, s.Principal, exp.ID)
	}
	if err != nil {
		h.formFailed(w, r, s, "campaign", h.campaignLoader(r), err, "preset")
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/csv; charset=utf-8")
	hd.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", f.Filename))
	hd.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, f.CSV)
}

// uploadImport receives the import form's CSV file, stages it as an upload
// and shows the column mapping.
func (h *handler) uploadImport(w http.ResponseWriter, r *http.Request, s session) {
	id := r.PathValue("id")
	raw, _, ok := h.readFileForm(w, r, importForm)
	if !ok {
		return
	}
	uploadID, err := h.app.Distribution.StageCSV(r.Context(), s.Principal, id, raw)
	if err != nil {
		h.formFailed(w, r, s, "campaign", h.campaignLoader(r), uploadFormError(err), "csv")
		return
	}
	http.Redirect(w, r, "/campaigns/"+id+"/import/"+uploadID, http.StatusSeeOther)
}

// uploadFormError names the form's file field where core names uploadId.
func uploadFormError(err error) error {
	e := core.AsError(err)
	if len(e.Fields) == 1 && e.Fields[0] == "uploadId" {
		c := *e
		c.Fields = []string{"csv"}
		return &c
	}
	return err
}

// importData is the content of the import page: the mapping form, or the
// summary once the import is saved.
type importData struct {
	CampaignID string
	Preview    distribution.ImportPreview
	Summary    *distribution.ImportSummary
}

// importMapping shows a staged upload's columns with the field each fills
// and whether it is kept for exports, or, once saved, the import's summary.
func (h *handler) importMapping(w http.ResponseWriter, r *http.Request, s session) {
	h.show(w, r, s, "import", h.importLoader(r))
}

// importLoader reads the import page of the request's {id} and {upload}.
func (h *handler) importLoader(r *http.Request) pageLoader {
	id, upload := r.PathValue("id"), r.PathValue("upload")
	return func(ctx context.Context, s session) (view, error) {
		if sum, err := h.app.Distribution.GetImport(ctx, s.Principal, id, upload); err == nil {
			return view{Nav: "campaigns", Data: importData{CampaignID: id, Summary: &sum}}, nil
		}
		p, err := h.app.Distribution.PreviewUpload(ctx, s.Principal, id, upload)
		if err != nil {
			return view{}, err
		}
		return view{Nav: "campaigns", Data: importData{CampaignID: id, Preview: p}}, nil
	}
}

// saveImport saves the import with the form's mapping (one field per
// column) and kept columns; the import page then shows its summary.
func (h *handler) saveImport(w http.ResponseWriter, r *http.Request, s session) {
	if !h.parseForm(w, r) {
		return
	}
	id, upload := r.PathValue("id"), r.PathValue("upload")
	retained := []int{}
	for _, v := range r.PostForm["retain"] {
		i, err := strconv.Atoi(v)
		if err != nil {
			h.formFailed(w, r, s, "import", h.importLoader(r), core.Invalid("retain", "is not a column; reload the page and try again"))
			return
		}
		retained = append(retained, i)
	}
	_, err := h.app.Distribution.SaveImport(r.Context(), s.Principal, id, distribution.ImportRequest{
		ImportID: upload, UploadID: upload, Fields: r.PostForm["field"], RetainedColumnIndices: retained,
		RightsConfirmed: r.PostForm.Get("rights_confirmed") == "yes"})
	if err != nil {
		h.formFailed(w, r, s, "import", h.importLoader(r), mappingFormError(err), mappingFields(len(r.PostForm["field"]))...)
		return
	}
	http.Redirect(w, r, "/campaigns/"+id+"/import/"+upload+"?done=imported", http.StatusSeeOther)
}

// columnPath is core's name for a column's field in an import (fields[3]).
var columnPath = regexp.MustCompile(`\bfields\[(\d+)\]`)

// mappingFields are the mapping form's fields for n columns: the select
// of column j is field-j.
func mappingFields(n int) []string {
	out := make([]string, n)
	for j := range out {
		out[j] = "field-" + strconv.Itoa(j)
	}
	return out
}

// mappingFormError names the mapping form's selects (field-j) where core
// names the columns' fields (fields[j]), and a column another problem
// mentions by its number as the page shows it (column j+1).
func mappingFormError(err error) error {
	e := core.AsError(err)
	if e == nil || e.Code != core.CodeValidation || !slices.ContainsFunc(e.Fields, columnPath.MatchString) {
		return err
	}
	out := &core.Error{Code: e.Code, URL: e.URL}
	for _, f := range e.Fields {
		out.Fields = append(out.Fields, columnPath.ReplaceAllString(f, "field-$1"))
	}
	var parts []string
	for _, piece := range strings.Split(e.Message, "; ") {
		if f, text, ok := strings.Cut(piece, ": "); ok && columnPath.MatchString(f) {
			piece = columnPath.ReplaceAllString(f, "field-$1") + ": " + columnWords(text)
		}
		parts = append(parts, piece)
	}
	out.Message = strings.Join(parts, "; ")
	return out
}

// columnWords names a column a message mentions (fields[1]) by its number
// on the page (column 2).
func columnWords(text string) string {
	return columnPath.ReplaceAllStringFunc(text, func(m string) string {
		j, _ := strconv.Atoi(columnPath.FindStringSubmatch(m)[1])
		return "column " + strconv.Itoa(j+1)
	})
}
