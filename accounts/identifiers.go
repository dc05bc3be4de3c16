package accounts

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"regexp"
	"strings"

	"github.com/btcsuite/btcd/btcutil/bech32"
	"github.com/mr-tron/base58"
	"golang.org/x/crypto/sha3"
)

// Identifier validation errors; the messages are safe to show to clients
// (CheckInfo prefixes them with the member's path). ErrChecksum is the one
// that Options.SkipCheckDigits forgives: the shape was right, a digit was
// not.
var (
	ErrFormat   = errors.New("has the wrong format")
	ErrChecksum = errors.New("fails its checksum")
	ErrCountry  = errors.New("names an unknown country or has the wrong length for it")
)

// ibanLengths is the IBAN length of each country in the SWIFT IBAN registry.
// A country missing here is ErrCountry: an IBAN of a country that issues
// none cannot be right.
var ibanLengths = map[string]int{
	"AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BI": 27, "BR": 29,
	"BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27, "DK": 18, "DO": 28, "EE": 20, "EG": 29,
	"ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28,
	"HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28,
	"LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MN": 20,
	"MR": 27, "MT": 31, "MU": 30, "NI": 28, "NL": 18, "NO": 15, "OM": 23, "PK": 24, "PL": 28, "PS": 29, "PT": 25,
	"QA": 29, "RO": 24, "RS": 22, "RU": 33, "SA": 24, "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27,
	"SO": 23, "ST": 25, "SV": 28, "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
}

// reIBAN is an IBAN's shape once spaces are removed and letters
// upper-cased: country, two check digits, and 11 to 30 alphanumerics.
var reIBAN = regexp.MustCompile(`^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$`)

// IBAN checks an IBAN (spaces allowed): shape, the country's length and the
// ISO 7064 mod-97 check.
func IBAN(s string) error {
	s = strings.ToUpper(strings.ReplaceAll(s, " ", ""))
	if !reIBAN.MatchString(s) {
		return ErrFormat
	}
	if n, ok := ibanLengths[s[:2]]; !ok || n != len(s) {
		return ErrCountry
	}
	// ISO 7064 mod-97: move the first four characters to the end, read
	// letters as 10..35, and the number must leave 1. The remainder is
	// folded in character by character, so no big integer is needed.
	rem := 0
	for _, r := range s[4:] + s[:4] {
		v := int(r - '0')
		if r >= 'A' {
			v = int(r-'A') + 10
		}
		if v >= 10 {
			rem = (rem*100 + v) % 97
		} else {
			rem = (rem*10 + v) % 97
		}
	}
	if rem != 1 {
		return ErrChecksum
	}
	return nil
}

// reDigits is a string of ASCII digits only.
var reDigits = regexp.MustCompile(`^[0-9]+$`)

// CLABE checks a Mexican CLABE: 18 digits whose last is the weighted
// (3, 7, 1) mod-10 check digit of the first 17.
func CLABE(s string) error {
	if len(s) != 18 || !reDigits.MatchString(s) {
		return ErrFormat
	}
	weights := [3]int{3, 7, 1}
	sum := 0
	for i := range 17 {
		sum += int(s[i]-'0') * weights[i%3] % 10
	}
	if (10-sum%10)%10 != int(s[17]-'0') {
		return ErrChecksum
	}
	return nil
}

// ABA checks a US routing number: 9 digits whose weighted sum (weights
// 3, 7, 1 repeated) is a multiple of 10.
func ABA(s string) error {
	if len(s) != 9 || !reDigits.MatchString(s) {
		return ErrFormat
	}
	d := func(i int) int { return int(s[i] - '0') }
	if (3*(d(0)+d(3)+d(6))+7*(d(1)+d(4)+d(7))+d(2)+d(5)+d(8))%10 != 0 {
		return ErrChecksum
	}
	return nil
}

// Shapes of identifiers that carry no checksum.
var (
	reSWIFT    = regexp.MustCompile(`^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$`)
	reSortCode = regexp.MustCompile(`^[0-9]{2}-?[0-9]{2}-?[0-9]{2}$`)
	reIFSC     = regexp.MustCompile(`^[A-Z]{4}0[A-Z0-9]{6}$`)
	reLNAddr   = regexp.MustCompile(`^[a-z0-9._+-]{1,64}@([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63}$`)
	reEVM      = regexp.MustCompile(`^0x[0-9a-fA-F]{40}$`)
)

// SWIFT checks a BIC: bank code, ISO country, location and optional branch.
// known reports whether a country code is assigned; nil skips that check.
// A BIC has no check digit, so it never fails with ErrChecksum.
func SWIFT(s string, known func(string) bool) error {
	if !reSWIFT.MatchString(s) {
		return ErrFormat
	}
	if known != nil && !known(s[4:6]) {
		return ErrCountry
	}
	return nil
}

// SortCode checks a UK sort code (six digits, dashes allowed).
func SortCode(s string) error { return matchErr(reSortCode, s) }

// IFSC checks an Indian Financial System Code.
func IFSC(s string) error { return matchErr(reIFSC, s) }

// LightningAddress checks a lightning address (user@domain).
func LightningAddress(s string) error { return matchErr(reLNAddr, s) }

// matchErr is ErrFormat unless re matches s.
func matchErr(re *regexp.Regexp, s string) error {
	if !re.MatchString(s) {
		return ErrFormat
	}
	return nil
}

// Keccak256 is the legacy Keccak-256 of Ethereum (the padding before
// NIST's SHA-3), over the concatenation of b.
func Keccak256(b ...[]byte) []byte {
	h := sha3.NewLegacyKeccak256()
	for _, p := range b {
		h.Write(p)
	}
	return h.Sum(nil)
}

// EVM checks an EVM address (0x + 40 hex digits); a mixed-case address must
// carry a valid EIP-55 checksum. An all-lower or all-upper address carries
// none, as EIP-55 allows, and passes on its shape alone.
func EVM(s string) error {
	if !reEVM.MatchString(s) {
		return ErrFormat
	}
	body := s[2:]
	if body == strings.ToLower(body) || body == strings.ToUpper(body) {
		return nil
	}
	if s != EIP55(s) {
		return ErrChecksum
	}
	return nil
}

// EIP55 returns the checksummed form of a 0x-prefixed EVM address: each
// letter is upper-cased when the matching nibble of the Keccak-256 of the
// lower-case address is 8 or more. addr must have EVM's shape.
func EIP55(addr string) string {
	lower := strings.ToLower(addr[2:])
	hash := hex.EncodeToString(Keccak256([]byte(lower)))
	out := []byte(lower)
	for i, c := range out {
		if c >= 'a' && hash[i] >= '8' {
			out[i] = c - 32
		}
	}
	return "0x" + string(out)
}

// Solana checks a Solana address: base58 of a 32-byte public key. Solana
// addresses carry no checksum, so only the shape is checked.
func Solana(s string) error {
	b, err := base58.Decode(s)
	if err != nil || len(b) != 32 || len(s) < 32 || len(s) > 44 {
		return ErrFormat
	}
	return nil
}

// Tron checks a Tron address: base58check of 0x41 and a 20-byte hash; the
// last four bytes are the double SHA-256 of the rest.
func Tron(s string) error {
	b, err := base58.Decode(s)
	if err != nil || len(b) != 25 || b[0] != 0x41 {
		return ErrFormat
	}
	sum := sha256.Sum256(b[:21])
	sum = sha256.Sum256(sum[:])
	if !bytes.Equal(sum[:4], b[21:]) {
		return ErrChecksum
	}
	return nil
}

// Spark checks a Spark address: bech32m with a spark human-readable part
// (spark, sparkt, sparkrt, sparks, sparkl).
func Spark(s string) error {
	hrp, _, err := decodeBech32(s)
	if err != nil {
		return err
	}
	switch hrp {
	case "spark", "sparkt", "sparkrt", "sparks", "sparkl":
		return nil
	}
	return ErrFormat
}

// SparkIdentityKey returns the 33-byte identity public key a Spark address
// carries (its payload is a protobuf whose field 1 holds the key).
func SparkIdentityKey(s string) ([]byte, error) {
	if err := Spark(s); err != nil {
		return nil, err
	}
	_, data, _ := decodeBech32(s)
	b, err := bech32.ConvertBits(data, 5, 8, false)
	if err != nil || len(b) < 35 || b[0] != 0x0a || b[1] != 33 {
		return nil, ErrFormat
	}
	return b[2:35], nil
}

// checksumFailed reports whether a bech32 decoding failed on its checksum
// (the library's ErrInvalidChecksum) rather than on the string's form.
func checksumFailed(err error) bool {
	var c bech32.ErrInvalidChecksum
	return errors.As(err, &c)
}

// decodeBech32 decodes bech32 or bech32m without the 90-character limit
// (Spark addresses are longer). Mixed case is ErrFormat, a failed checksum
// ErrChecksum.
func decodeBech32(s string) (string, []byte, error) {
	if strings.ToLower(s) != s && strings.ToUpper(s) != s {
		return "", nil, ErrFormat
	}
	hrp, data, _, err := bech32.DecodeNoLimitWithVersion(strings.ToLower(s))
	if err != nil {
		if checksumFailed(err) {
			return "", nil, ErrChecksum
		}
		return "", nil, ErrFormat
	}
	return hrp, data, nil
}

// BOLT11 checks a Lightning invoice: see ParseBOLT11 for what is verified.
// The invoice's expiry is not checked here: it matters when paying.
func BOLT11(s string) error {
	_, err := ParseBOLT11(s)
	return err
}

// reBolt12 is an offer's shape: "lno1" and bech32 data characters.
var reBolt12 = regexp.MustCompile(`^lno1[02-9ac-hj-np-z]+$`)

// BOLT12 checks a Lightning offer: "lno1" and bech32 characters (offers
// carry no checksum). BOLT 12 lets a long offer be split with "+", which is
// removed first.
func BOLT12(s string) error {
	return matchErr(reBolt12, strings.ToLower(strings.ReplaceAll(s, "+", "")))
}
