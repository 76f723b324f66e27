package web

import (
	"strings"

	"github.com/giftwell/giftwell/core/billing"
	"github.com/giftwell/giftwell/core/distribution"
)

// The words pages use for the spec's values that are not a gift's: a
// checkout's state and the fields an imported column fills.

// checkoutStateName says where a checkout stands.
func checkoutStateName(s billing.CheckoutState) string {
	switch s {
	case billing.CheckoutCreating:
		return "Being opened"
	case billing.CheckoutOpen:
		return "Waiting for payment"
	case billing.CheckoutPaid:
		return "Paid, not launched yet"
	case billing.CheckoutConsumed:
		return "Paid and launched"
	case billing.CheckoutExpired:
		return "Expired unpaid"
	case billing.CheckoutCancelled:
		return "Cancelled"
	}
	return sentenceWords(string(s))
}

// importFieldNames are the words for the fields a column may fill.
var importFieldNames = map[string]string{
	distribution.FieldName: "Name", distribution.FieldFirstName: "First name", distribution.FieldLastName: "Last name",
	distribution.FieldEmail: "Email", distribution.FieldCompany: "Company", distribution.FieldTitle: "Job title",
	distribution.FieldSourceSystem: "Source system (CRM)", distribution.FieldExternalID: "ID in your CRM",
	distribution.FieldMessage: "Note", distribution.FieldCustomTag: "Tag", distribution.FieldPhotoURL: "Photo link",
	distribution.FieldLinkedInURL: "LinkedIn profile", distribution.FieldAdult: "Confirmed as an adult",
	distribution.FieldAddressMode: "Who gives the address", distribution.FieldAddress: "Street address",
	distribution.FieldCity: "City", distribution.FieldState: "State", distribution.FieldZip: "ZIP code",
	distribution.FieldCountry: "Country",
}

// importFieldName says what a column fills: a field in words, or a detail
// kept under its own name ("detail:segment" reads "Detail: segment").
func importFieldName(field string) string {
	if n, ok := importFieldNames[field]; ok {
		return n
	}
	if key, ok := strings.CutPrefix(field, "detail:"); ok {
		return "Detail: " + strings.ReplaceAll(key, "_", " ")
	}
	return sentenceWords(field)
}
