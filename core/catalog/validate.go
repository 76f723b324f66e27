package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/giftwell/giftwell/core"
)

// Catalog bounds checked on import.
const (
	// MaxProductIDLength is the longest product ID (the spec's productId bound).
	MaxProductIDLength = 200
	// MaxCatalogProducts is the most products one catalog may hold.
	MaxCatalogProducts = 5000
	// maxCatalogProblems caps how many problems one import error lists.
	maxCatalogProblems = 20
)

// productIDPattern keeps IDs safe in a URL path segment (GET /catalog/{productId}).
var productIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._~:-]*$`)

var detailKeyPattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]{0,63}$`)

var stateCodePattern = regexp.MustCompile(`^[A-Z]{2}$`)

// DecodeCatalog reads a JSON array of products strictly (an unknown field is
// an error), normalizes it (an absent fulfillmentKind is standard; absent
// lists become empty) and validates it with ValidateCatalog. Errors are
// VALIDATION_ERROR naming the product and the field.
func DecodeCatalog(r io.Reader) ([]Product, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, core.Internal(fmt.Errorf("read catalog: %w", err))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var products []Product
	if err := dec.Decode(&products); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.Is(err, io.ErrUnexpectedEOF):
			return nil, &core.Error{Code: core.CodeInvalidJSON, Message: "catalog: invalid JSON: unexpected end of input"}
		case errors.As(err, &se):
			return nil, &core.Error{Code: core.CodeInvalidJSON, Message: fmt.Sprintf("catalog: invalid JSON at byte %d: %v", se.Offset, se)}
		case errors.As(err, &te):
			return nil, core.Invalid("catalog", "%s must be %s (at byte %d)", fieldOr(te.Field, "the document"), te.Type, te.Offset)
		}
		return nil, core.Invalid("catalog", "%v", err)
	}
	if dec.More() {
		return nil, &core.Error{Code: core.CodeInvalidJSON, Message: "catalog: invalid JSON: data after the array"}
	}
	NormalizeCatalog(products)
	if err := ValidateCatalog(products); err != nil {
		return nil, err
	}
	return products, nil
}

func fieldOr(f, def string) string {
	if f == "" {
		return def
	}
	return f
}

// NormalizeCatalog fills defaults in place: an absent fulfillmentKind is
// standard and absent personalization and quote inputs are empty lists, so
// that every product renders the same fields.
func NormalizeCatalog(products []Product) {
	for i := range products {
		p := &products[i]
		if p.FulfillmentKind == "" {
			p.FulfillmentKind = FulfillmentStandard
		}
		if p.Personalization == nil {
			p.Personalization = []string{}
		}
		if p.QuoteDetails != nil && p.QuoteDetails.Inputs == nil {
			p.QuoteDetails.Inputs = []string{}
		}
		if p.PrepaidOffer != nil && p.PrepaidOffer.ShippingStates == nil {
			p.PrepaidOffer.ShippingStates = []string{}
		}
	}
}

// ValidateCatalog checks a whole catalog: at least one product and at most
// MaxCatalogProducts; IDs unique, 1-200 characters of letters, digits and
// . _ ~ : - (safe in a URL path); a name; non-negative cents; a known
// fulfillmentKind; well-formed personalizationText, recipientDetails (unique
// keys, kind text or url, maxLength 1-2000) and prepaidOffer. It returns nil
// or one VALIDATION_ERROR whose message lists the problems, each as
// `product "<id>" (#<index>): <field>: <problem>`.
func ValidateCatalog(products []Product) error {
	var v catalogValidator
	if len(products) == 0 {
		v.add(-1, "", "catalog", "must hold at least one product")
	}
	if len(products) > MaxCatalogProducts {
		v.add(-1, "", "catalog", fmt.Sprintf("must hold at most %d products", MaxCatalogProducts))
	}
	seen := make(map[string]int, len(products))
	for i, p := range products {
		v.product(i, p)
		if p.ID == "" {
			continue
		}
		if j, dup := seen[p.ID]; dup {
			v.add(i, p.ID, "id", fmt.Sprintf("duplicates product #%d", j))
		} else {
			seen[p.ID] = i
		}
	}
	return v.err()
}

type catalogValidator struct {
	problems []string
	fields   []string
	more     int
}

func (v *catalogValidator) add(i int, id, field, problem string) {
	if len(v.problems) >= maxCatalogProblems {
		v.more++
		return
	}
	where, path := "catalog", "catalog"
	if i >= 0 {
		where = fmt.Sprintf("product %q (#%d): %s", id, i, field)
		path = fmt.Sprintf("[%d].%s", i, field)
	}
	v.problems = append(v.problems, where+": "+problem)
	v.fields = append(v.fields, path)
}

func (v *catalogValidator) err() error {
	if len(v.problems) == 0 {
		return nil
	}
	msg := strings.Join(v.problems, "; ")
	if v.more > 0 {
		msg += fmt.Sprintf("; and %d more", v.more)
	}
	return &core.Error{Code: core.CodeValidation, Message: msg, Fields: v.fields}
}

func (v *catalogValidator) product(i int, p Product) {
	id := p.ID
	switch n := utf8.RuneCountInString(p.ID); {
	case n == 0:
		v.add(i, id, "id", "is required")
	case n > MaxProductIDLength:
		v.add(i, id, "id", fmt.Sprintf("must be at most %d characters", MaxProductIDLength))
	case !productIDPattern.MatchString(p.ID):
		v.add(i, id, "id", "may use only letters, digits and . _ ~ : - and must start with a letter or digit")
	}
	if strings.TrimSpace(p.Name) == "" {
		v.add(i, id, "name", "is required")
	} else if utf8.RuneCountInString(p.Name) > 200 {
		v.add(i, id, "name", "must be at most 200 characters")
	}
	if p.PriceCents < 0 {
		v.add(i, id, "priceCents", "must not be negative")
	}
	if p.ShippingCents < 0 {
		v.add(i, id, "shippingCents", "must not be negative")
	}
	if !p.FulfillmentKind.Valid() {
		v.add(i, id, "fulfillmentKind", fmt.Sprintf("must be standard, food or alcohol, not %q", p.FulfillmentKind))
	}
	if t := p.PersonalizationText; t != nil {
		if strings.TrimSpace(t.Label) == "" {
			v.add(i, id, "personalizationText.label", "is required")
		}
		if t.MaxLength < 1 {
			v.add(i, id, "personalizationText.maxLength", "must be at least 1")
		}
		if t.MaxLines < 1 {
			v.add(i, id, "personalizationText.maxLines", "must be at least 1")
		}
		if t.LineMaxLength < 1 || (t.MaxLength >= 1 && t.LineMaxLength > t.MaxLength) {
			v.add(i, id, "personalizationText.lineMaxLength", "must be between 1 and maxLength")
		}
		if strings.ContainsAny(t.AllowedCharacters, "\r\n") {
			v.add(i, id, "personalizationText.allowedCharacters", "must not list line breaks")
		}
	}
	keys := map[string]bool{}
	for j, d := range p.RecipientDetails {
		f := fmt.Sprintf("recipientDetails[%d]", j)
		switch {
		case !detailKeyPattern.MatchString(d.Key):
			v.add(i, id, f+".key", "must be 1-64 letters, digits or underscores, starting with a letter")
		case keys[d.Key]:
			v.add(i, id, f+".key", fmt.Sprintf("duplicates %q", d.Key))
		}
		keys[d.Key] = true
		if strings.TrimSpace(d.Label) == "" {
			v.add(i, id, f+".label", "is required")
		}
		if d.Kind != DetailText && d.Kind != DetailURL {
			v.add(i, id, f+".kind", fmt.Sprintf("must be text or url, not %q", d.Kind))
		}
		if d.MaxLength < 1 || d.MaxLength > 2000 {
			v.add(i, id, f+".maxLength", "must be between 1 and 2000")
		}
	}
	if o := p.PrepaidOffer; o != nil {
		if o.UnitCents < 1 {
			v.add(i, id, "prepaidOffer.unitCents", "must be at least 1")
		}
		if len(o.ShippingStates) == 0 {
			v.add(i, id, "prepaidOffer.shippingStates", "must list at least one state")
		}
		for j, s := range o.ShippingStates {
			if !stateCodePattern.MatchString(s) {
				v.add(i, id, fmt.Sprintf("prepaidOffer.shippingStates[%d]", j), fmt.Sprintf("must be a two-letter state code, not %q", s))
			}
		}
	}
}
