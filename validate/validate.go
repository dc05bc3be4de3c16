// Package validate is the field-error vocabulary shared by the pure area packages
// (customers, accounts, quotes, agents) and the root package.
//
// It exists as its own package because the area packages must not import the root
// package (ARCHITECTURE.md: only adapters import it), yet every one of them reports invalid fields in the same
// shape: the error body's details.errors entries {field, constraint, message}. The root
// package wraps an [Errors] value into its coded error (INVALID_INPUT by default).
//
// A validator collects every problem at once instead of stopping at the first:
//
//	var errs validate.Errors
//	errs.Required("fullName", c.FullName)
//	errs.MaxLen("fullName", c.FullName, 250)
//	errs.Enum("idType", c.IDType, "SSN", "ITIN")
//	if err := errs.Err(); err != nil {
//		return err
//	}
package validate

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// Constraint describes the rule a field broke, in the error body's constraint shape.
// Zero-valued members are omitted on the wire.
type Constraint struct {
	Format    string   `json:"format,omitempty"`
	Pattern   string   `json:"pattern,omitempty"`
	Enum      []string `json:"enum,omitempty"`
	MinLength *int     `json:"minLength,omitempty"`
	MaxLength *int     `json:"maxLength,omitempty"`
}

// FieldError is one invalid field: Field is a dot path ("address.postalCode",
// "accountInfo.beneficiary.fullName", "currencies.1").
type FieldError struct {
	Field      string      `json:"field"`
	Constraint *Constraint `json:"constraint,omitempty"`
	Message    string      `json:"message"`
}

// Errors collects field errors. The zero value is ready to use. Err returns nil
// when nothing was added.
type Errors []FieldError

// Error implements error by joining the messages.
func (e Errors) Error() string {
	parts := make([]string, len(e))
	for i, fe := range e {
		parts[i] = fe.Field + ": " + fe.Message
	}
	return strings.Join(parts, "; ")
}

// Err returns e as an error, or nil when it holds no entries.
func (e Errors) Err() error {
	if len(e) == 0 {
		return nil
	}
	return e
}

// Add records a field error with an optional constraint.
func (e *Errors) Add(field string, c *Constraint, format string, args ...any) {
	*e = append(*e, FieldError{Field: field, Constraint: c, Message: fmt.Sprintf(format, args...)})
}

// Merge appends other's entries with prefix (plus a dot) in front of each field.
// An empty prefix appends them unchanged.
func (e *Errors) Merge(prefix string, other error) {
	if other == nil {
		return
	}
	errs, ok := other.(Errors)
	if !ok {
		e.Add(prefix, nil, "%s", other.Error())
		return
	}
	for _, fe := range errs {
		if prefix != "" {
			fe.Field = Path(prefix, fe.Field)
		}
		*e = append(*e, fe)
	}
}

// Has reports whether an error was recorded for field.
func (e Errors) Has(field string) bool {
	for _, fe := range e {
		if fe.Field == field {
			return true
		}
	}
	return false
}

// Path joins dot-path segments, skipping empty ones.
func Path(parts ...string) string {
	out := parts[:0:0]
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, ".")
}

// Index returns "field.i", the path of an array element.
func Index(field string, i int) string { return fmt.Sprintf("%s.%d", field, i) }

func intp(n int) *int { return &n }

// Required records an error when v is empty and reports whether v was present.
func (e *Errors) Required(field, v string) bool {
	if strings.TrimSpace(v) == "" {
		e.Add(field, nil, "%s is required", field)
		return false
	}
	return true
}

// Missing records that a required non-string field is absent.
func (e *Errors) Missing(field string) { e.Add(field, nil, "%s is required", field) }

// MaxLen records an error when v is longer than max characters (runes).
func (e *Errors) MaxLen(field, v string, max int) bool {
	if utf8.RuneCountInString(v) > max {
		e.Add(field, &Constraint{MaxLength: intp(max)}, "%s must be at most %d characters", field, max)
		return false
	}
	return true
}

// Length records an error when v is shorter than min or longer than max characters.
func (e *Errors) Length(field, v string, min, max int) bool {
	n := utf8.RuneCountInString(v)
	if n < min || n > max {
		e.Add(field, &Constraint{MinLength: intp(min), MaxLength: intp(max)},
			"%s must be %d to %d characters", field, min, max)
		return false
	}
	return true
}

// Enum records an error when v (if non-empty) is not one of allowed.
func (e *Errors) Enum(field, v string, allowed ...string) bool {
	if v == "" {
		return true
	}
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	e.Add(field, &Constraint{Enum: allowed}, "%s must be one of %s", field, strings.Join(allowed, ", "))
	return false
}

// Match records an error when v (if non-empty) does not match re.
func (e *Errors) Match(field, v string, re *regexp.Regexp, what string) bool {
	if v == "" || re.MatchString(v) {
		return true
	}
	e.Add(field, &Constraint{Pattern: re.String()}, "%s must be %s", field, what)
	return false
}

// Format records a format error (such as "date" or "email") for field.
func (e *Errors) Format(field, format, message string) {
	e.Add(field, &Constraint{Format: format}, "%s", message)
}

// Date records an error when v (if non-empty) is not a YYYY-MM-DD calendar date.
func (e *Errors) Date(field, v string) bool {
	if v == "" {
		return true
	}
	if _, err := time.Parse(time.DateOnly, v); err != nil {
		e.Format(field, "date", field+" must be a date in YYYY-MM-DD format")
		return false
	}
	return true
}

var (
	reCountry = regexp.MustCompile(`^[A-Z]{2}$`)
	rePhone   = regexp.MustCompile(`^\+[1-9]\d{1,14}$`)
)

// Country records an error when v (if non-empty) is not an ISO 3166-1 alpha-2
// code (two upper-case letters from the assigned set).
func (e *Errors) Country(field, v string) bool {
	if v == "" {
		return true
	}
	if !reCountry.MatchString(v) || !IsCountry(v) {
		e.Add(field, &Constraint{Pattern: reCountry.String()}, "%s must be an ISO 3166-1 alpha-2 country code", field)
		return false
	}
	return true
}

// Phone records an error when v (if non-empty) is not an E.164 number.
func (e *Errors) Phone(field, v string) bool {
	return e.Match(field, v, rePhone, "an E.164 phone number such as +14155550123")
}

// URL adds an error unless raw is an absolute http(s) URL of at most 2048
// characters.
func (e *Errors) URL(field, raw string) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || len(raw) > 2048 {
		e.Format(field, "uri", field+" must be an absolute http(s) URL")
	}
}
