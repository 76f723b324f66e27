package web

import (
	"context"
	"net/http"
	"net/url"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
)

// settingsData is the content of the settings page.
type settingsData struct {
	// CanEdit shows the form editable with a save button (owner or admin);
	// members see it read-only.
	CanEdit bool
	// Emails are the kinds of email the person may choose (the emails form).
	Emails []emailChoice
}

// settingsFields are the settings form's fields, named as the API names them.
var settingsFields = []string{"company", "name", "meetingUrl", "website", "brandColor"}

// settings shows the workspace settings.
func (h *handler) settings(w http.ResponseWriter, r *http.Request, s session) {
	h.show(w, r, s, "settings", h.settingsView)
}

func (h *handler) settingsView(ctx context.Context, s session) (view, error) {
	st, err := h.app.Identity.WorkspaceSettings(ctx, s.Principal)
	if err != nil {
		return view{}, err
	}
	choices, err := h.app.Notify.Choices(ctx, s.Principal)
	if err != nil {
		return view{}, err
	}
	values := url.Values{
		"company": {st.Company}, "name": {st.Name}, "meetingUrl": {st.MeetingURL},
		"website": {st.Website}, "brandColor": {st.BrandColor},
	}
	for _, c := range choices {
		if c.On {
			values.Add(emailsField, string(c.Kind))
		}
	}
	return view{
		Nav:    "settings",
		Values: values,
		Data:   settingsData{CanEdit: core.Authorize(s.Principal, core.ActUpdateSettings, "") == nil, Emails: emailChoices()},
	}, nil
}

// saveSettings saves the fields the form sent.
func (h *handler) saveSettings(w http.ResponseWriter, r *http.Request, s session) {
	if !h.parseForm(w, r) {
		return
	}
	if _, err := h.app.Identity.UpdateWorkspaceSettings(r.Context(), s.Principal, settingsPatch(r.PostForm)); err != nil {
		h.formFailed(w, r, s, "settings", h.settingsView, err, settingsFields...)
		return
	}
	http.Redirect(w, r, "/settings?done=settings-saved", http.StatusSeeOther)
}

// settingsPatch sets each field the form sent; a field left out stays as it is.
func settingsPatch(form url.Values) identity.SettingsPatch {
	get := func(name string) *string {
		if _, ok := form[name]; !ok {
			return nil
		}
		v := form.Get(name)
		return &v
	}
	return identity.SettingsPatch{
		Company: get("company"), Name: get("name"), MeetingURL: get("meetingUrl"),
		Website: get("website"), BrandColor: get("brandColor"),
	}
}
