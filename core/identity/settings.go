package identity

import (
	"context"
	"net"
	"net/url"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// Bounds of the workspace settings (see docs/decisions/).
const (
	// MaxSettingsNameLength bounds company and name, in characters.
	MaxSettingsNameLength = 200
	// MaxSettingsURLLength bounds meetingUrl and website, in characters.
	MaxSettingsURLLength = 500
)

// Settings are a workspace's sender defaults (GET /settings).
type Settings struct {
	Company    string `json:"company" jsonschema:"the sending company's name; defaults to the workspace's name"`
	Name       string `json:"name" jsonschema:"the default sender's name; defaults to the owner's name"`
	MeetingURL string `json:"meetingUrl" jsonschema:"the default meeting link (https), or empty"`
	Website    string `json:"website" jsonschema:"the company's website (https), or empty"`
	BrandColor string `json:"brandColor" jsonschema:"the brand colour as #rrggbb, or empty for the default"`
}

// SettingsPatch changes some settings; a nil field stays as it is.
type SettingsPatch struct {
	Company    *string
	Name       *string
	MeetingURL *string
	Website    *string
	BrandColor *string
}

var brandColorPattern = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

// WorkspaceSettings returns p's workspace settings, with defaults where none
// were saved. It returns the codes of Authorize (ActRead: any person, key or
// connection with gifts:read) or INTERNAL_ERROR.
func (a *Service) WorkspaceSettings(ctx context.Context, p core.Principal) (Settings, error) {
	if err := core.Authorize(p, core.ActRead, a.Config.SettingsURL()); err != nil {
		return Settings{}, err
	}
	return a.readSettings(ctx, db.New(a.DB), p.WorkspaceID)
}

func (a *Service) readSettings(ctx context.Context, q *db.Queries, workspaceID string) (Settings, error) {
	r, err := q.WorkspaceSettingsGet(ctx, workspaceID)
	if core.IsNoRows(err) {
		return Settings{}, core.Errorf(core.CodeNotFound, "workspace %s does not exist", workspaceID)
	}
	if err != nil {
		return Settings{}, core.Internal(err)
	}
	s := Settings{Company: r.WorkspaceName, Name: r.WorkspaceName}
	if r.OwnerName != nil {
		s.Name = *r.OwnerName
	}
	if r.Company != nil {
		s.Company, s.Name = *r.Company, deref(r.SenderName)
		s.MeetingURL, s.Website, s.BrandColor = deref(r.MeetingUrl), deref(r.Website), deref(r.BrandColor)
	}
	return s, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// UpdateWorkspaceSettings changes the fields of patch that are set and
// returns the settings afterwards. company and name are 1-200 characters
// on one line; meetingUrl and website are empty or an https URL of at most
// 500 characters on a public host name, without credentials; brandColor is
// empty or #rrggbb (stored lower case). Values are trimmed. An invalid field
// changes nothing.
//
// It returns the codes of Authorize (ActUpdateSettings: an owner or admin,
// signed in or by key; a member or a member's key gets
// TEAM_MANAGER_REQUIRED), VALIDATION_ERROR naming the first invalid field,
// or INTERNAL_ERROR.
func (a *Service) UpdateWorkspaceSettings(ctx context.Context, p core.Principal, patch SettingsPatch) (Settings, error) {
	if err := core.Authorize(p, core.ActUpdateSettings, a.Config.SettingsURL()); err != nil {
		return Settings{}, err
	}
	var out Settings
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		if err := q.WorkspaceSettingsLock(ctx, p.WorkspaceID); err != nil {
			return core.Internal(err)
		}
		s, err := a.readSettings(ctx, q, p.WorkspaceID)
		if err != nil {
			return err
		}
		if err := applySettingsPatch(&s, patch); err != nil {
			return err
		}
		updatedBy := p.UserID
		if err := q.WorkspaceSettingsUpsert(ctx, db.WorkspaceSettingsUpsertParams{
			WorkspaceID: p.WorkspaceID, Company: s.Company, SenderName: s.Name, MeetingUrl: s.MeetingURL,
			Website: s.Website, BrandColor: s.BrandColor, UpdatedAt: a.Clock.Now(), UpdatedBy: &updatedBy,
		}); err != nil {
			return core.Internal(err)
		}
		out = s
		return nil
	})
	if err != nil {
		return Settings{}, core.AsCoreError(err)
	}
	return out, nil
}

// applySettingsPatch validates and applies the set fields of patch to s,
// answering every field's problem at once.
func applySettingsPatch(s *Settings, patch SettingsPatch) error {
	var pr core.Problems
	type field struct {
		name  string
		value *string
		dst   *string
		check func(string, string) (string, error)
	}
	for _, f := range []field{
		{"company", patch.Company, &s.Company, checkSettingsName},
		{"name", patch.Name, &s.Name, checkSettingsName},
		{"meetingUrl", patch.MeetingURL, &s.MeetingURL, checkPublicURL},
		{"website", patch.Website, &s.Website, checkPublicURL},
		{"brandColor", patch.BrandColor, &s.BrandColor, checkBrandColor},
	} {
		if f.value == nil {
			continue
		}
		v, err := f.check(f.name, strings.TrimSpace(*f.value))
		if err != nil {
			if !pr.AddError(err) {
				return err
			}
			continue
		}
		*f.dst = v
	}
	return pr.Err()
}

func checkSettingsName(field, v string) (string, error) {
	if v == "" {
		return "", core.Invalid(field, "is required")
	}
	if n := utf8.RuneCountInString(v); n > MaxSettingsNameLength {
		return "", core.Invalid(field, "must be at most %d characters (got %d)", MaxSettingsNameLength, n)
	}
	if strings.IndexFunc(v, unicode.IsControl) >= 0 {
		return "", core.Invalid(field, "must be one line without control characters")
	}
	return v, nil
}

// checkPublicURL accepts "" or an absolute https URL on a host name with a
// dot (not an IP address, not a bare host like localhost), without
// credentials or spaces.
func checkPublicURL(field, v string) (string, error) {
	if v == "" {
		return "", nil
	}
	if n := utf8.RuneCountInString(v); n > MaxSettingsURLLength {
		return "", core.Invalid(field, "must be at most %d characters (got %d)", MaxSettingsURLLength, n)
	}
	if strings.IndexFunc(v, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		return "", core.Invalid(field, "must be a URL without spaces")
	}
	u, err := url.Parse(v)
	if err != nil || !strings.EqualFold(u.Scheme, "https") || u.Opaque != "" {
		return "", core.Invalid(field, "must be an https URL like https://example.com/path, or empty")
	}
	if u.User != nil {
		return "", core.Invalid(field, "must not contain a user name or password")
	}
	host := strings.TrimSuffix(u.Hostname(), ".")
	if host == "" || !strings.Contains(host, ".") || net.ParseIP(host) != nil || strings.HasPrefix(host, ".") {
		return "", core.Invalid(field, "must name a public host like example.com")
	}
	return v, nil
}

func checkBrandColor(field, v string) (string, error) {
	if v == "" {
		return "", nil
	}
	if !brandColorPattern.MatchString(v) {
		return "", core.Invalid(field, "must be a colour as #rrggbb, like #1a7f5a, or empty")
	}
	return strings.ToLower(v), nil
}
