package accounts

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Variant describes one accountType of an external account: the currency it
// holds (empty: any fiat currency, for SWIFT), its required and optional
// accountInfo members, whether a beneficiary is required, and the payment
// rails it reaches.
type Variant struct {
	// Currency is the only currency the account may hold; empty for
	// SWIFT (any fiat currency) and for wallets (any token the chain
	// carries).
	Currency string
	// Required and Optional are the accountInfo members the variant
	// takes; any other is refused.
	Required []string
	Optional []string
	// Beneficiary is "required" (bank accounts), "optional" (wallets) or
	// "" (none accepted).
	Beneficiary string
	// Rails are the payment rails the account reaches, stored on it as
	// accountInfo.paymentRails.
	Rails []string
	// Wallet marks crypto wallets (and Lightning).
	Wallet bool
}

// bank is a bank-account variant in currency cur; rails, required and
// optional are space-separated lists, to keep the table readable.
func bank(cur string, rails string, required, optional string) Variant {
	return Variant{Currency: cur, Required: strings.Fields(required), Optional: strings.Fields(optional),
		Beneficiary: "required", Rails: strings.Fields(rails)}
}

// wallet is a self-custody or hosted wallet: an address, the VASP that
// holds it when it is hosted, and an optional beneficiary.
func wallet() Variant {
	return Variant{Required: []string{"address"}, Optional: []string{"vaspName"}, Beneficiary: "optional", Wallet: true}
}

// Variants is the table of every accountType (the reference's
// createExternalAccount shapes). ILS and TRY accounts are IBAN accounts; LIGHTNING_ACCOUNT is
// LIGHTNING's shape; SLV_ACCOUNT (El Salvador) holds USD. It is shared by
// every engine in the process: treat it as read-only.
var Variants = map[string]Variant{
	"AED_ACCOUNT":       bank("AED", "BANK_TRANSFER", "iban", "swiftCode"),
	"BDT_ACCOUNT":       bank("BDT", "BANK_TRANSFER MOBILE_MONEY", "bankName", "accountNumber branchCode swiftCode phoneNumber"),
	"BRL_ACCOUNT":       bank("BRL", "PIX", "pixKey pixKeyType taxId", ""),
	"BWP_ACCOUNT":       bank("BWP", "MOBILE_MONEY", "phoneNumber provider", ""),
	"CAD_ACCOUNT":       bank("CAD", "BANK_TRANSFER", "bankCode branchCode accountNumber", ""),
	"CNY_ACCOUNT":       bank("CNY", "BANK_TRANSFER MOBILE_MONEY", "bankName", "accountNumber phoneNumber"),
	"COP_ACCOUNT":       bank("COP", "BANK_TRANSFER MOBILE_MONEY", "bankName", "accountNumber bankAccountType phoneNumber"),
	"DKK_ACCOUNT":       bank("DKK", "SEPA SEPA_INSTANT", "iban", "swiftCode"),
	"EGP_ACCOUNT":       bank("EGP", "BANK_TRANSFER MOBILE_MONEY", "bankName", "iban phoneNumber"),
	"EUR_ACCOUNT":       bank("EUR", "SEPA SEPA_INSTANT", "iban", "swiftCode"),
	"GBP_ACCOUNT":       bank("GBP", "FASTER_PAYMENTS", "sortCode accountNumber", ""),
	"GHS_ACCOUNT":       bank("GHS", "BANK_TRANSFER MOBILE_MONEY", "bankName", "accountNumber phoneNumber"),
	"GTQ_ACCOUNT":       bank("GTQ", "BANK_TRANSFER", "accountNumber bankAccountType bankName", ""),
	"HKD_ACCOUNT":       bank("HKD", "BANK_TRANSFER", "bankName accountNumber swiftCode", ""),
	"HTG_ACCOUNT":       bank("HTG", "MOBILE_MONEY", "phoneNumber", ""),
	"IDR_ACCOUNT":       bank("IDR", "BANK_TRANSFER", "bankName accountNumber swiftCode phoneNumber", ""),
	"ILS_ACCOUNT":       bank("ILS", "BANK_TRANSFER", "iban", "swiftCode"),
	"INR_ACCOUNT":       bank("INR", "UPI NEFT RTGS", "", "vpa accountNumber ifsc rail bankName"),
	"JMD_ACCOUNT":       bank("JMD", "BANK_TRANSFER", "accountNumber branchCode bankAccountType bankName", ""),
	"KES_ACCOUNT":       bank("KES", "MOBILE_MONEY", "phoneNumber provider", ""),
	"MWK_ACCOUNT":       bank("MWK", "MOBILE_MONEY", "phoneNumber provider", ""),
	"MXN_ACCOUNT":       bank("MXN", "SPEI", "clabeNumber", ""),
	"MYR_ACCOUNT":       bank("MYR", "BANK_TRANSFER", "bankName accountNumber swiftCode", ""),
	"NGN_ACCOUNT":       bank("NGN", "BANK_TRANSFER", "accountNumber bankName", ""),
	"PHP_ACCOUNT":       bank("PHP", "BANK_TRANSFER", "bankName accountNumber", ""),
	"PKR_ACCOUNT":       bank("PKR", "BANK_TRANSFER MOBILE_MONEY", "bankName", "accountNumber iban phoneNumber"),
	"RWF_ACCOUNT":       bank("RWF", "MOBILE_MONEY", "phoneNumber provider", ""),
	"SGD_ACCOUNT":       bank("SGD", "PAYNOW FAST BANK_TRANSFER", "accountNumber swiftCode", "bankName"),
	"SLV_ACCOUNT":       bank("USD", "BANK_TRANSFER MOBILE_MONEY", "", "bankName accountNumber bankAccountType phoneNumber"),
	"THB_ACCOUNT":       bank("THB", "BANK_TRANSFER", "bankName accountNumber swiftCode", ""),
	"TRY_ACCOUNT":       bank("TRY", "BANK_TRANSFER", "iban", "swiftCode"),
	"TZS_ACCOUNT":       bank("TZS", "MOBILE_MONEY", "phoneNumber provider", ""),
	"UGX_ACCOUNT":       bank("UGX", "MOBILE_MONEY", "phoneNumber provider", ""),
	"USD_ACCOUNT":       bank("USD", "ACH WIRE RTP FEDNOW", "accountNumber routingNumber", "bankName bankAccountType intermediaryBankName intermediaryRoutingNumber fiToFiInformation"),
	"VND_ACCOUNT":       bank("VND", "BANK_TRANSFER", "bankName accountNumber swiftCode", ""),
	"XAF_ACCOUNT":       bank("XAF", "MOBILE_MONEY", "phoneNumber provider region", ""),
	"XOF_ACCOUNT":       bank("XOF", "MOBILE_MONEY", "phoneNumber provider region", ""),
	"ZAR_ACCOUNT":       bank("ZAR", "BANK_TRANSFER", "accountNumber bankName", ""),
	"ZMW_ACCOUNT":       bank("ZMW", "MOBILE_MONEY", "phoneNumber provider", ""),
	"SWIFT_ACCOUNT":     bank("", "SWIFT", "country swiftCode bankName", "accountNumber iban"),
	"BASE_WALLET":       wallet(),
	"ETHEREUM_WALLET":   wallet(),
	"POLYGON_WALLET":    wallet(),
	"PLASMA_WALLET":     wallet(),
	"ARBITRUM_WALLET":   wallet(),
	"SOLANA_WALLET":     wallet(),
	"SPARK_WALLET":      wallet(),
	"TRON_WALLET":       wallet(),
	"LIGHTNING":         {Currency: "BTC", Optional: []string{"invoice", "bolt12", "lightningAddress"}, Wallet: true},
	"LIGHTNING_ACCOUNT": {Currency: "BTC", Optional: []string{"invoice", "bolt12", "lightningAddress"}, Wallet: true},
}

// AccountTypes returns every accountType, sorted: a new slice each call.
func AccountTypes() []string {
	out := make([]string, 0, len(Variants))
	for k := range Variants {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Chain returns the network of a wallet accountType ("EVM", "SOLANA",
// "TRON", "SPARK", "LIGHTNING"), or "" for bank accounts.
func Chain(accountType string) string {
	switch accountType {
	case "BASE_WALLET", "ETHEREUM_WALLET", "POLYGON_WALLET", "PLASMA_WALLET", "ARBITRUM_WALLET":
		return "EVM"
	case "SOLANA_WALLET":
		return "SOLANA"
	case "TRON_WALLET":
		return "TRON"
	case "SPARK_WALLET":
		return "SPARK"
	case "LIGHTNING", "LIGHTNING_ACCOUNT":
		return "LIGHTNING"
	}
	return ""
}

// Issue is one invalid accountInfo member. Identifier issues (a checksum or
// format that a bank or chain would refuse) are told apart from structural
// ones (missing members, wrong types) so the engine can answer
// INVALID_BANK_ACCOUNT for the former.
type Issue struct {
	Field      string
	Message    string
	Identifier bool
}

var (
	reAccountNumber = regexp.MustCompile(`^[A-Za-z0-9]{1,34}$`)
	rePhone         = regexp.MustCompile(`^\+[1-9]\d{1,14}$`)
)

// CheckInfo validates an accountInfo object (decoded JSON) for currency.
// Paths are prefixed with "accountInfo.". knownCountry tells assigned
// ISO 3166 codes. Identifiers are checked in full, check digits included.
// It returns the accountType (even an unknown one) and every issue, sorted
// by field; no issue means valid.
func CheckInfo(info map[string]any, currency string, knownCountry func(string) bool) (string, []Issue) {
	return CheckInfoWith(info, currency, knownCountry, true)
}

// CheckInfoWith is CheckInfo with a choice: with checkDigits false an
// account identifier that fails only its checksum (ErrChecksum: IBAN
// mod-97, ABA routing numbers, CLABE, wallet address checksums) passes; its
// shape, length and country are still checked. Lightning invoices are
// always checked in full: they must decode to be paid.
func CheckInfoWith(info map[string]any, currency string, knownCountry func(string) bool, checkDigits bool) (string, []Issue) {
	var out []Issue
	add := func(field string, id bool, format string, args ...any) {
		out = append(out, Issue{Field: "accountInfo." + field, Message: "accountInfo." + field + " " + fmt.Sprintf(format, args...), Identifier: id})
	}
	typ, _ := info["accountType"].(string)
	v, ok := Variants[typ]
	if !ok {
		add("accountType", false, "must be one of the supported account types")
		return typ, out
	}
	// Every other member must be a string of the variant. beneficiary is
	// checked apart (checkBeneficiary); paymentRails is not checked, and
	// CreateExternal replaces it for the variants that have rails.
	str := map[string]string{}
	for k, raw := range info {
		if k == "accountType" || k == "beneficiary" || k == "paymentRails" {
			continue
		}
		s, isStr := raw.(string)
		if !isStr {
			add(k, false, "must be a string")
			continue
		}
		if !slices.Contains(v.Required, k) && !slices.Contains(v.Optional, k) {
			add(k, false, "is not a member of %s", typ)
			continue
		}
		str[k] = strings.TrimSpace(s)
	}
	for _, f := range v.Required {
		if _, isSet := info[f]; !isSet {
			add(f, false, "is required for %s", typ)
		}
	}
	if v.Currency != "" && currency != "" && currency != v.Currency && !(v.Wallet && v.Currency == "") {
		out = append(out, Issue{Field: "currency", Message: fmt.Sprintf("currency must be %s for %s", v.Currency, typ)})
	}
	if typ == "LIGHTNING" || typ == "LIGHTNING_ACCOUNT" {
		if str["invoice"] == "" && str["bolt12"] == "" && str["lightningAddress"] == "" {
			add("invoice", false, "or bolt12 or lightningAddress is required")
		}
	}
	// The reference's shape first (pattern, length, enumeration), then the
	// identifier's own rules; only a checksum failure of a lenient member
	// may be forgiven.
	for k, s := range str {
		if err := checkShape(shapes[typ][k], s); err != nil {
			add(k, true, "%v", err)
		} else if err := checkMember(typ, k, s, knownCountry); err != nil && (checkDigits || !lenientMember[k] || !errors.Is(err, ErrChecksum)) {
			add(k, true, "%v", err)
		}
	}
	out = append(out, checkBeneficiary(info["beneficiary"], v, typ, knownCountry)...)
	sort.Slice(out, func(i, j int) bool { return out[i].Field < out[j].Field })
	return typ, out
}

// lenientMember lists the members whose checksum CheckInfoWith may skip:
// the identifiers whose check digits the hosted sandbox does not verify
// (payments.Config.SkipCheckDigits).
var lenientMember = map[string]bool{"iban": true, "routingNumber": true, "intermediaryRoutingNumber": true,
	"clabeNumber": true, "address": true}

// shapePatterns holds every shape's pattern compiled once.
var shapePatterns = func() map[string]*regexp.Regexp {
	out := map[string]*regexp.Regexp{}
	for _, members := range shapes {
		for _, sh := range members {
			if sh.pattern != "" && out[sh.pattern] == nil {
				out[sh.pattern] = regexp.MustCompile(sh.pattern)
			}
		}
	}
	return out
}()

// checkShape applies the reference's pattern, length and enumeration.
// Lengths count characters (runes), as JSON Schema's maxLength does.
func checkShape(sh shape, s string) error {
	n := len([]rune(s))
	switch {
	case sh.min > 0 && n < sh.min, sh.max > 0 && n > sh.max:
		return fmt.Errorf("must be %d to %d characters", sh.min, sh.max)
	case len(sh.enum) > 0 && !slices.Contains(sh.enum, s):
		return fmt.Errorf("must be one of %s", strings.Join(sh.enum, ", "))
	case sh.pattern != "" && !shapePatterns[sh.pattern].MatchString(s):
		return fmt.Errorf("must match %s", sh.pattern)
	}
	return nil
}

// checkMember validates one member by its name: identifiers by their
// checksum or format, enumerations, countries, and an address by the
// variant's chain. A member without a rule of its own must not be empty.
func checkMember(typ, k, s string, knownCountry func(string) bool) error {
	switch k {
	case "iban":
		return IBAN(s)
	case "swiftCode":
		return SWIFT(s, knownCountry)
	case "routingNumber", "intermediaryRoutingNumber":
		return ABA(s)
	case "clabeNumber":
		return CLABE(s)
	case "sortCode":
		return SortCode(s)
	case "ifsc":
		return IFSC(s)
	case "accountNumber":
		return matchErr(reAccountNumber, s)
	case "phoneNumber":
		return matchErr(rePhone, s)
	case "invoice":
		return BOLT11(s)
	case "bolt12":
		return BOLT12(s)
	case "lightningAddress":
		return LightningAddress(s)
	case "bankAccountType":
		if s != "CHECKING" && s != "SAVINGS" {
			return fmt.Errorf("must be CHECKING or SAVINGS")
		}
	case "pixKeyType":
		if !slices.Contains([]string{"CPF", "CNPJ", "EMAIL", "PHONE", "RANDOM"}, s) {
			return fmt.Errorf("must be one of CPF, CNPJ, EMAIL, PHONE, RANDOM")
		}
	case "country":
		if knownCountry != nil && !knownCountry(s) {
			return ErrCountry
		}
	case "address":
		switch Chain(typ) {
		case "EVM":
			return EVM(s)
		case "SOLANA":
			return Solana(s)
		case "TRON":
			return Tron(s)
		case "SPARK":
			return Spark(s)
		}
	}
	if s == "" {
		return fmt.Errorf("must not be empty")
	}
	return nil
}

// checkBeneficiary validates the beneficiary object of a variant: an
// INDIVIDUAL needs fullName (and what individualRequires adds), a BUSINESS
// legalName; countries, phone and address are checked when present. Its
// issues are structural (INVALID_INPUT), never identifier issues.
func checkBeneficiary(raw any, v Variant, typ string, knownCountry func(string) bool) []Issue {
	var out []Issue
	add := func(field, msg string) {
		out = append(out, Issue{Field: "accountInfo.beneficiary" + field, Message: "accountInfo.beneficiary" + field + " " + msg})
	}
	if raw == nil {
		if v.Beneficiary == "required" {
			add("", "is required for "+typ)
		}
		return out
	}
	if v.Beneficiary == "" {
		add("", "is not a member of "+typ)
		return out
	}
	b, ok := raw.(map[string]any)
	if !ok {
		add("", "must be an object")
		return out
	}
	s := func(k string) string { x, _ := b[k].(string); return x }
	switch s("beneficiaryType") {
	case "INDIVIDUAL":
		if s("fullName") == "" {
			add(".fullName", "is required")
		}
		need := individualRequires[typ]
		if v.Wallet {
			need = []string{"countryOfResidence"}
		}
		for _, k := range need {
			if _, set := b[k]; !set {
				add("."+k, "is required for an individual beneficiary of "+typ)
			}
		}
	case "BUSINESS":
		if s("legalName") == "" {
			add(".legalName", "is required")
		}
	default:
		add(".beneficiaryType", "must be INDIVIDUAL or BUSINESS")
	}
	for _, k := range []string{"countryOfResidence", "nationality"} {
		if c := s(k); c != "" && knownCountry != nil && !knownCountry(c) {
			add("."+k, "must be an ISO 3166-1 alpha-2 country code")
		}
	}
	if _, set := b["phoneNumber"]; set && !rePhone.MatchString(s("phoneNumber")) {
		add(".phoneNumber", "must be an E.164 phone number")
	}
	if a, set := b["address"]; set {
		for _, is := range checkAddress(a, knownCountry) {
			add(".address"+is.Field, is.Message)
		}
	}
	return out
}

// individualRequires lists the members an INDIVIDUAL beneficiary of an
// accountType needs besides fullName (the reference's per-currency
// beneficiary schemas); wallets need countryOfResidence.
var individualRequires = map[string][]string{
	"AED_ACCOUNT": {"address"},
	"EUR_ACCOUNT": {"countryOfResidence"},
	"GTQ_ACCOUNT": {"countryOfResidence", "phoneNumber"},
	"JMD_ACCOUNT": {"address", "phoneNumber"},
}

// checkAddress validates a beneficiary's postal address: an object with
// line1, postalCode and an ISO country (the reference's Address); Field is
// relative to the address ("" or ".line1").
func checkAddress(raw any, knownCountry func(string) bool) []Issue {
	a, ok := raw.(map[string]any)
	if !ok {
		return []Issue{{Message: "must be an object"}}
	}
	var out []Issue
	for k, v := range a {
		if _, isStr := v.(string); !isStr {
			out = append(out, Issue{Field: "." + k, Message: "must be a string"})
		}
	}
	for _, k := range []string{"line1", "postalCode", "country"} {
		if s, isStr := a[k].(string); (isStr || a[k] == nil) && strings.TrimSpace(s) == "" {
			out = append(out, Issue{Field: "." + k, Message: "is required"})
		}
	}
	if c, _ := a["country"].(string); c != "" && knownCountry != nil && !knownCountry(c) {
		out = append(out, Issue{Field: ".country", Message: "must be an ISO 3166-1 alpha-2 country code"})
	}
	return out
}
