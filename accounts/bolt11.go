package accounts

import (
	"crypto/sha256"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/btcsuite/btcd/btcutil/bech32"
	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
)

// Invoice is the part of a decoded BOLT11 Lightning invoice that payments
// need: where it pays, how much, and until when.
type Invoice struct {
	// Network is the currency prefix after "ln": bc (mainnet), tb
	// (testnet), tbs (signet), bcrt (regtest) or sb (simnet).
	Network string
	// AmountMsat is the requested amount in millisatoshis; 0 when the
	// invoice leaves the amount to the payer.
	AmountMsat int64
	// Timestamp is when the invoice was created.
	Timestamp time.Time
	// Expiry is how long the invoice stays payable (default one hour).
	Expiry time.Duration
	// PaymentHash is the SHA-256 hash whose preimage the payee reveals.
	PaymentHash [32]byte
	// Description is the short description (tag d), if any.
	Description string
	// Payee is the 33-byte compressed public key of the payee node: the
	// n field when present, else the key recovered from the signature.
	Payee []byte
}

// ExpiresAt is the instant after which the invoice can no longer be paid.
func (i Invoice) ExpiresAt() time.Time { return i.Timestamp.Add(i.Expiry) }

// BOLT11 field types (the bech32 character's value) this decoder reads.
const (
	tagPaymentHash = 1  // p
	tagExpiry      = 6  // x
	tagDescription = 13 // d
	tagPayee       = 19 // n
)

// bolt11 sizes in 5-bit words.
const (
	timestampWords = 7   // 35-bit UNIX time
	signatureWords = 104 // 64-byte r||s and a recovery byte
	hashWords      = 52  // a 256-bit hash
	pubkeyWords    = 53  // a 33-byte compressed key
)

// networks lists the currency prefixes, longest first so that "bcrt" is
// not read as "bc" followed by an amount.
var networks = []string{"bcrt", "tbs", "bc", "tb", "sb"}

// msatPer is the millisatoshis of one unit of each amount multiplier
// (p is handled apart: a tenth of a millisatoshi).
var msatPer = map[byte]int64{0: 100_000_000_000, 'm': 100_000_000, 'u': 100_000, 'n': 100}

// ParseBOLT11 decodes and verifies a BOLT11 invoice ("lightning:" prefix
// allowed): bech32 checksum, currency prefix and amount, the tagged-field
// framing, a payment hash, and the payee's signature over the
// human-readable part and data. When the invoice names its payee (n), the
// signature must be that key's and low-S; otherwise the payee is the key
// the signature recovers.
func ParseBOLT11(s string) (Invoice, error) {
	var inv Invoice
	if len(s) >= 10 && strings.EqualFold(s[:10], "lightning:") {
		s = s[10:]
	}
	if strings.ToLower(s) != s && strings.ToUpper(s) != s {
		return inv, ErrFormat // bech32 forbids mixed case
	}
	hrp, data, version, err := bech32.DecodeNoLimitWithVersion(strings.ToLower(s))
	if err != nil {
		if checksumFailed(err) {
			return inv, ErrChecksum
		}
		return inv, ErrFormat
	}
	if version != bech32.Version0 || len(data) < timestampWords+signatureWords {
		return inv, ErrFormat
	}
	if inv.Network, inv.AmountMsat, err = parseBOLT11Prefix(hrp); err != nil {
		return inv, err
	}
	inv.Timestamp = time.Unix(int64(wordsToUint(data[:timestampWords])), 0).UTC()
	inv.Expiry = time.Hour
	body := data[:len(data)-signatureWords]
	var payee []byte
	hasHash := false
	for rest := body[timestampWords:]; len(rest) > 0; {
		if len(rest) < 3 {
			return inv, ErrFormat
		}
		typ, n := rest[0], int(rest[1])<<5|int(rest[2])
		if len(rest) < 3+n {
			return inv, ErrFormat
		}
		field := rest[3 : 3+n]
		rest = rest[3+n:]
		// Fields of an unexpected length are skipped, as BOLT11 readers must.
		switch {
		case typ == tagPaymentHash && n == hashWords && !hasHash:
			copy(inv.PaymentHash[:], wordsToBytes(field))
			hasHash = true
		case typ == tagPayee && n == pubkeyWords && payee == nil:
			payee = wordsToBytes(field)
		case typ == tagExpiry && n <= 10:
			inv.Expiry = time.Duration(min(wordsToUint(field), math.MaxInt64/uint64(time.Second))) * time.Second
		case typ == tagDescription:
			inv.Description = string(wordsToBytes(field))
		}
	}
	if !hasHash {
		return inv, ErrFormat
	}
	inv.Payee, err = bolt11Signer(hrp, body, wordsToBytes(data[len(body):]), payee)
	return inv, err
}

// parseBOLT11Prefix reads "ln" + currency prefix + optional amount.
func parseBOLT11Prefix(hrp string) (string, int64, error) {
	rest, ok := strings.CutPrefix(hrp, "ln")
	if !ok {
		return "", 0, ErrFormat
	}
	for _, net := range networks {
		amount, ok := strings.CutPrefix(rest, net)
		if !ok || (amount != "" && (amount[0] < '0' || amount[0] > '9')) {
			continue
		}
		msat, err := parseBOLT11Amount(amount)
		return net, msat, err
	}
	return "", 0, ErrFormat
}

// parseBOLT11Amount converts digits and an optional multiplier to
// millisatoshis, refusing overflow and sub-millisatoshi pico amounts.
func parseBOLT11Amount(a string) (int64, error) {
	if a == "" {
		return 0, nil
	}
	mult := a[len(a)-1]
	digits := a
	if mult < '0' || mult > '9' {
		digits = a[:len(a)-1]
	} else {
		mult = 0
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n <= 0 || digits[0] == '+' {
		return 0, ErrFormat
	}
	if mult == 'p' {
		if n%10 != 0 {
			return 0, ErrFormat
		}
		return n / 10, nil
	}
	per, ok := msatPer[mult]
	if !ok || n > math.MaxInt64/per {
		return 0, ErrFormat
	}
	return n * per, nil
}

// bolt11Signer checks the 65-byte signature (r||s||recovery id) over the
// SHA-256 of the human-readable part and the data words (zero-padded to
// bytes) and returns the signing key.
func bolt11Signer(hrp string, body, sig, payee []byte) ([]byte, error) {
	if len(sig) != 65 || sig[64] > 3 {
		return nil, ErrFormat
	}
	padded, err := bech32.ConvertBits(body, 5, 8, true)
	if err != nil {
		return nil, ErrFormat
	}
	hash := sha256.Sum256(append([]byte(hrp), padded...))
	compact := append([]byte{27 + 4 + sig[64]}, sig[:64]...)
	key, _, err := ecdsa.RecoverCompact(compact, hash[:])
	if err != nil {
		return nil, ErrChecksum
	}
	got := key.SerializeCompressed()
	if payee == nil {
		return got, nil
	}
	if _, err := secp256k1.ParsePubKey(payee); err != nil {
		return nil, ErrFormat
	}
	if string(got) != string(payee) || new(big.Int).SetBytes(sig[32:64]).Cmp(halfOrder) > 0 {
		return nil, ErrChecksum
	}
	return payee, nil
}

// halfOrder is N/2 of secp256k1: a larger S is not canonical.
var halfOrder = new(big.Int).Rsh(secp256k1.Params().N, 1)

// wordsToUint reads 5-bit words as a big-endian unsigned number (callers
// pass at most 12 words).
func wordsToUint(w []byte) uint64 {
	var v uint64
	for _, x := range w {
		v = v<<5 | uint64(x&31)
	}
	return v
}

// wordsToBytes regroups 5-bit words into bytes, dropping the final
// partial byte (the writer's zero padding).
func wordsToBytes(w []byte) []byte {
	out := make([]byte, 0, len(w)*5/8)
	var acc uint32
	bits := 0
	for _, x := range w {
		acc = acc<<5 | uint32(x&31)
		bits += 5
		if bits >= 8 {
			bits -= 8
			out = append(out, byte(acc>>bits))
		}
	}
	return out
}
