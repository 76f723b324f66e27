package distribution

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/giftlink"
)

// Preset is an export's choice of columns.
type Preset string

// The presets (gift-link rule 8).
const (
	// PresetOriginal (the default): the retained source columns of the
	// campaign's imports plus gift_link, gift_status and gift_expires_at.
	PresetOriginal Preset = "original"
	// PresetCompact: the recipient's identity plus those three columns.
	PresetCompact Preset = "compact"
)

// LinkColumns are the columns every export ends with.
var LinkColumns = []string{"gift_link", "gift_status", "gift_expires_at"}

// IdentityColumns are the compact preset's recipient identity, and the
// original preset's when the campaign has no retained source column.
var IdentityColumns = []string{"name", "email", "company", "source_system", "external_id"}

// OptionalColumns are the record fields optionalColumns may add, after the
// preset's columns.
var OptionalColumns = []string{
	"recipient_id", "campaign_id", "gift_id", "product_id", "availability", "availability_reason",
	"link_generation", "mode", "import_id", "import_row_id", "review_url",
	"name", "email", "company", "profile_url", "source_system", "external_id",
}

// Bounds of an export's columns.
const (
	// MaxOptionalColumns is the most optionalColumns one export takes.
	MaxOptionalColumns = 20
	// MaxColumnPrefix is the longest columnPrefix.
	MaxColumnPrefix = 40
)

// recordField is the value of a record's field named by a column.
func recordField(r giftlink.Record, field string) string {
	switch field {
	case "gift_link":
		return r.GiftLink
	case "gift_status":
		return r.GiftStatus
	case "gift_expires_at":
		return r.GiftExpiresAt
	case "recipient_id":
		return r.RecipientID
	case "campaign_id":
		return r.CampaignID
	case "gift_id":
		return r.GiftID
	case "product_id":
		return r.ProductID
	case "availability":
		return string(r.Availability)
	case "availability_reason":
		return string(r.AvailabilityReason)
	case "link_generation":
		return strconv.Itoa(r.LinkGeneration)
	case "mode":
		return string(r.Mode)
	case "import_id":
		return r.ImportID
	case "import_row_id":
		return r.ImportRowID
	case "review_url":
		return r.ReviewURL
	case "name":
		return r.Name
	case "email":
		return r.Email
	case "company":
		return r.Company
	case "profile_url":
		return r.ProfileURL
	case "source_system":
		return r.SourceSystem
	case "external_id":
		return r.ExternalID
	}
	return ""
}

// column is one column of an export: a record field, or a source column
// (the cell at Index of import ImportID's rows).
type column struct {
	Name     string `json:"name"`
	Field    string `json:"field,omitempty"`
	ImportID string `json:"importId,omitempty"`
	Index    int    `json:"index,omitempty"`
}

// sourceColumn is a retained column of one of the campaign's imports.
type sourceColumn struct {
	importID string
	index    int
	name     string
}

// planColumns is the export's columns: the preset's, then optionalColumns,
// Giftwell's own named with prefix. A name that repeats (a source column
// named like one of Giftwell's) is VALIDATION_ERROR naming columnPrefix.
func planColumns(preset Preset, optional []string, prefix string, sources []sourceColumn) ([]column, error) {
	var cols []column
	field := func(f string) { cols = append(cols, column{Name: prefix + f, Field: f}) }
	if preset == PresetOriginal && len(sources) > 0 {
		for _, s := range sources {
			cols = append(cols, column{Name: s.name, ImportID: s.importID, Index: s.index})
		}
	} else {
		for _, f := range IdentityColumns {
			field(f)
		}
	}
	for _, f := range LinkColumns {
		field(f)
	}
	for _, f := range optional {
		if !slices.ContainsFunc(cols, func(c column) bool { return c.Field == f }) {
			field(f)
		}
	}
	seen := map[string]bool{}
	for _, c := range cols {
		key := strings.ToLower(strings.TrimSpace(c.Name))
		if seen[key] {
			return nil, core.Invalid("columnPrefix", "the column %q appears twice (a source column has the name of one of Giftwell's); set a columnPrefix such as giftwell_", c.Name)
		}
		seen[key] = true
	}
	return cols, nil
}

// checkOptional checks optionalColumns.
func checkOptional(optional []string) error {
	if len(optional) > MaxOptionalColumns {
		return core.Invalid("optionalColumns", "must list at most %d columns", MaxOptionalColumns)
	}
	for i, f := range optional {
		if !slices.Contains(OptionalColumns, f) {
			return core.Invalid(fmt.Sprintf("optionalColumns[%d]", i), "must be one of %s", strings.Join(OptionalColumns, ", "))
		}
	}
	return nil
}

// checkPrefix checks columnPrefix: letters, digits, _, - and . only.
func checkPrefix(prefix string) error {
	if len(prefix) > MaxColumnPrefix {
		return core.Invalid("columnPrefix", "must be at most %d characters", MaxColumnPrefix)
	}
	return plainChars("columnPrefix", prefix)
}
