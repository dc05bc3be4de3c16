package payments

import (
	"bytes"
	"fmt"
	"strings"
)

// DefaultBrand is the neutral word this platform's wire names carry where
// the public reference names its maker:
// the Service-Wallet-Signature request header, the X-Service-Signature
// webhook header, the codes SERVICE_SWITCH_ERROR, CLOSED_BY_SERVICE,
// SERVICE_INTERNAL_ACCOUNT and the two STABLECOIN_SERVICE_… codes, and the
// fields serviceApiMultiplier, serviceApiFixedFee, serviceApiVariableFeeRate,
// serviceApiVariableFeeAmount and serviceOperationsStatus.
const DefaultBrand = "Service"

// Wire names of the default brand that adapters set or read by name.
const (
	WalletSignatureHeader  = "Service-Wallet-Signature" // a signed retry's stamp
	WebhookSignatureHeader = "X-Service-Signature"      // a webhook delivery's signature
)

// brandedNames are the wire names that carry the brand word, with {T} for
// its title form (headers), {l} for its lower-first form (field names) and
// {U} for its upper form (codes). No other name is renamed: SERVICE_UNAVAILABLE
// and SERVICE_CHARGES do not carry the brand.
var brandedNames = []string{
	"{T}-Wallet-Signature", "X-{T}-Signature",
	"STABLECOIN_{U}_OPERATIONS_NOT_ENABLED", "STABLECOIN_{U}_ENABLEMENT_NOT_REQUESTABLE",
	"{U}_SWITCH_ERROR", "CLOSED_BY_{U}", "{U}_INTERNAL_ACCOUNT",
	"{l}ApiMultiplier", "{l}ApiFixedFee", "{l}ApiVariableFeeRate", "{l}ApiVariableFeeAmount", "{l}OperationsStatus",
}

// Brand speaks another maker's name on the wire, so that clients written
// for the reference work unchanged: every name of brandedNames carries the
// brand instead of DefaultBrand, in both directions. Adapters translate
// what they send with Outgoing and what they receive with Incoming, and set
// or read the two headers by the names Brand gives.
//
// The translation is textual: an answer or a request that carries one of
// the branded names inside a free text (a description, an error message)
// has it translated there too, which is what error messages naming the
// header need.
//
// A nil *Brand is the default brand: every method returns the default
// names and its input unchanged, without allocating.
type Brand struct {
	title, lower, upper string
	out, in             *strings.Replacer
}

// NewBrand returns the brand name, such as "Acme": one to 32 ASCII letters
// and digits, starting with a letter. Headers carry it with its first
// letter upper-cased, field names with it lower-cased, codes upper-cased;
// a name given all in capitals is taken in title case ("ACME" is "Acme").
// "" and DefaultBrand (in any case) return nil, the default.
func NewBrand(name string) (*Brand, error) {
	if name == "" || strings.EqualFold(name, DefaultBrand) {
		return nil, nil
	}
	if len(name) > 32 {
		return nil, fmt.Errorf("payments: brand %q is longer than 32 characters", name)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return nil, fmt.Errorf("payments: brand %q must be ASCII letters and digits, starting with a letter", name)
		}
	}
	if name == strings.ToUpper(name) {
		name = name[:1] + strings.ToLower(name[1:])
	}
	b := &Brand{title: strings.ToUpper(name[:1]) + name[1:], lower: strings.ToLower(name[:1]) + name[1:], upper: strings.ToUpper(name)}
	neutral := strings.NewReplacer("{T}", DefaultBrand, "{l}", strings.ToLower(DefaultBrand), "{U}", strings.ToUpper(DefaultBrand))
	branded := strings.NewReplacer("{T}", b.title, "{l}", b.lower, "{U}", b.upper)
	var out, in []string
	for _, n := range brandedNames {
		out = append(out, neutral.Replace(n), branded.Replace(n))
		in = append(in, branded.Replace(n), neutral.Replace(n))
	}
	b.out, b.in = strings.NewReplacer(out...), strings.NewReplacer(in...)
	return b, nil
}

// Name is the brand's name in title case (DefaultBrand for nil).
func (b *Brand) Name() string {
	if b == nil {
		return DefaultBrand
	}
	return b.title
}

// WalletSignatureHeader names the header of a signed retry's stamp:
// "<Name>-Wallet-Signature".
func (b *Brand) WalletSignatureHeader() string {
	if b == nil {
		return WalletSignatureHeader
	}
	return b.title + "-Wallet-Signature"
}

// WebhookSignatureHeader names the header of a webhook's signature:
// "X-<Name>-Signature".
func (b *Brand) WebhookSignatureHeader() string {
	if b == nil {
		return WebhookSignatureHeader
	}
	return "X-" + b.title + "-Signature"
}

// Outgoing translates a body to send (an answer, a webhook): the default
// brand's names become the brand's. It returns p itself when nothing
// changes; it never writes into p.
func (b *Brand) Outgoing(p []byte) []byte {
	// Every default name holds "ervice" (Service, service) or "ERVICE".
	if b == nil || !bytes.Contains(p, []byte("ervice")) && !bytes.Contains(p, []byte("ERVICE")) {
		return p
	}
	return replace(b.out, p)
}

// Incoming translates a received body (a request): the brand's names
// become the default brand's, which the engine speaks. It returns p itself
// when nothing changes; it never writes into p.
func (b *Brand) Incoming(p []byte) []byte {
	if b == nil || !b.carried(p) {
		return p
	}
	return replace(b.in, p)
}

// IncomingString is Incoming for a string, such as a query.
func (b *Brand) IncomingString(s string) string {
	if b == nil || !strings.Contains(s, b.title) && !strings.Contains(s, b.lower) && !strings.Contains(s, b.upper) {
		return s
	}
	return b.in.Replace(s)
}

// carried reports whether p may hold one of the brand's names.
func (b *Brand) carried(p []byte) bool {
	return bytes.Contains(p, []byte(b.title)) || bytes.Contains(p, []byte(b.lower)) || bytes.Contains(p, []byte(b.upper))
}

func replace(r *strings.Replacer, p []byte) []byte {
	var buf bytes.Buffer
	buf.Grow(len(p) + 64)
	_, _ = r.WriteString(&buf, string(p))
	return buf.Bytes()
}
