package httpapi_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/btcutil/bech32"
	"github.com/paygrid/payments"
	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/internal/wirecheck"
	"github.com/stretchr/testify/require"
)

// bolt11Donation is the "donation" example invoice of BOLT #11.
const bolt11Donation = "lnbc1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpl2pkx2ctnv5sxxmmwwd5kgetjypeh2ursdae8g6twvus8g6rfwvs8qun0dfjkxaq9qrsgq357wnc5r2ueh7ck6q93dj32dlqnls087fxdwk8qakdyafkq3yap9us6v52vjjsrvywa6rt52cm9r9zqt8r2t7mlcwspyetp5h2tztugp9lfyql"

// validMember returns a valid value of an accountInfo member for typ,
// within the reference's per-type shapes.
func validMember(t *testing.T, typ, member string) string {
	switch member {
	case "iban":
		if v, ok := map[string]string{"AED_ACCOUNT": "AE070331234567890123456", "DKK_ACCOUNT": "DK5000400440116243",
			"ILS_ACCOUNT": "IL620108000000099999999", "TRY_ACCOUNT": "TR330006100519786457841326",
			"PKR_ACCOUNT": "PK36SCBL0000001123456702", "EGP_ACCOUNT": "EG380019000500000000263180002"}[typ]; ok {
			return v
		}
		return "DE89370400440532013000"
	case "phoneNumber":
		if v, ok := map[string]string{"RWF_ACCOUNT": "+250712345678", "TZS_ACCOUNT": "+255712345678",
			"ZMW_ACCOUNT": "+260712345678", "IDR_ACCOUNT": "+6281234567890"}[typ]; ok {
			return v
		}
		return "+254712345678"
	case "accountNumber":
		if typ == "GBP_ACCOUNT" {
			return "12345678"
		}
		return "1234567890"
	case "region":
		if typ == "XOF_ACCOUNT" {
			return "SN"
		}
		return "CM"
	case "address":
		switch accounts.Chain(typ) {
		case "EVM":
			return "0x52908400098527886e0f7030069857d2e4169ee7"
		case "SOLANA":
			return "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
		case "TRON":
			return "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
		}
		data, err := bech32.ConvertBits(append([]byte{0x0a, 33, 3}, make([]byte, 32)...), 8, 5, true)
		require.NoError(t, err)
		s, err := bech32.EncodeM("spark", data)
		require.NoError(t, err)
		return s
	}
	v, ok := map[string]string{"swiftCode": "DEUTDEFF", "routingNumber": "021000021", "intermediaryRoutingNumber": "011000015",
		"clabeNumber": "032180000118359719", "sortCode": "123456", "ifsc": "HDFC0001234", "provider": "MPESA",
		"bankName": "Bank", "branchCode": "00012", "bankCode": "004", "bankAccountType": "CHECKING",
		"pixKey": "testuser.001@pix.com.br", "pixKeyType": "EMAIL", "taxId": "12345678901", "vpa": "user@upi", "rail": "UPI",
		"country": "DE", "intermediaryBankName": "IB", "fiToFiInformation": "memo", "vaspName": "Coinbase",
		"invoice": bolt11Donation, "bolt12": "lno1pgqpvggr53478rgx3s4uy", "lightningAddress": "jane@getalby.com"}[member]
	require.True(t, ok, "no valid value for %s", member)
	return v
}

// invalidMember corrupts an identifier member so that its format or check
// digits fail; ok is false for free-text members.
func invalidMember(member, good string) (string, bool) {
	switch member {
	case "iban":
		last := good[len(good)-1]
		return good[:len(good)-1] + string('0'+(last-'0'+1)%10), true // mod 97 fails
	case "routingNumber", "intermediaryRoutingNumber":
		return good[:8] + string('0'+(good[8]-'0'+1)%10), true // ABA checksum fails
	case "clabeNumber":
		return good[:17] + string('0'+(good[17]-'0'+1)%10), true // check digit fails
	case "swiftCode":
		return "DEUT1EFF", true
	case "sortCode":
		return "12345", true
	case "ifsc":
		return "HDFC1001234", true
	case "accountNumber", "phoneNumber":
		return "12-34!", true
	case "bolt12":
		return "lnx" + good[3:], true
	case "address", "invoice", "lightningAddress":
		return good + "0", true // length, base58, bech32 checksum or TLD fails
	}
	return "", false
}

// specOnlyTypes are the accountTypes this API accepts that the reference's
// accountType enumeration lacks: their exchanges cannot match the reference.
var specOnlyTypes = map[string]bool{"ARBITRUM_WALLET": true, "ILS_ACCOUNT": true, "TRY_ACCOUNT": true, "LIGHTNING_ACCOUNT": true}

// postUnchecked POSTs body with the admin credential, opting the exchange
// out of the wire check (wirecheck.Skip) because it is off-reference.
func (s *server) postUnchecked(path string, body any) response {
	s.t.Helper()
	raw, err := json.Marshal(body)
	require.NoError(s.t, err)
	req, err := http.NewRequest("POST", s.http.URL+base+path, bytes.NewReader(raw))
	require.NoError(s.t, err)
	req.Header.Set("Content-Type", "application/json")
	id, secret, _ := cut(s.cred)
	req.SetBasicAuth(id, secret)
	res, err := client(s.t).Do(wirecheck.Skip(req))
	require.NoError(s.t, err)
	defer res.Body.Close()
	out := response{Status: res.StatusCode, Header: res.Header}
	out.Raw, err = io.ReadAll(res.Body)
	require.NoError(s.t, err)
	require.NoError(s.t, json.Unmarshal(out.Raw, &out.Body), "body: %s", out.Raw)
	return out
}

// TestExternalAccounts_AllTypes creates an account of each of the 50 types
// with every member valid, then refuses each identifier corrupted (400
// INVALID_BANK_ACCOUNT naming the member) and each required member missing
// (400 INVALID_INPUT naming it). Every exchange is wire-checked.
func TestExternalAccounts_AllTypes(t *testing.T) {
	s := accountServer(t)
	id := s.customer()
	require.Len(t, accounts.AccountTypes(), 50)
	for _, typ := range accounts.AccountTypes() {
		v := accounts.Variants[typ]
		t.Run(typ, func(t *testing.T) {
			currency := v.Currency
			switch {
			case currency == "" && accounts.Chain(typ) == "SPARK":
				currency = "BTC"
			case currency == "" && v.Wallet:
				currency = "USDC"
			case currency == "":
				currency = "EUR" // SWIFT_ACCOUNT: any fiat currency
			}
			info := map[string]any{"accountType": typ}
			for _, m := range append(append([]string{}, v.Required...), v.Optional...) {
				info[m] = validMember(t, typ, m)
			}
			if v.Beneficiary != "" {
				info["beneficiary"] = map[string]any{"beneficiaryType": "INDIVIDUAL", "fullName": "Jane Doe", "countryOfResidence": "DE",
					"phoneNumber": "+4915112345678", "address": map[string]any{"line1": "Main St 1", "postalCode": "10115", "country": "DE"}}
			}
			post := func(body any) response { return s.do("POST", "/customers/external-accounts", body) }
			if specOnlyTypes[typ] {
				post = func(body any) response { return s.postUnchecked("/customers/external-accounts", body) }
			}
			body := func(info map[string]any) map[string]any {
				return map[string]any{"customerId": id, "currency": currency, "accountInfo": info}
			}
			with := func(k string, val any) map[string]any {
				out := map[string]any{}
				for k2, v2 := range info {
					out[k2] = v2
				}
				if val == nil {
					delete(out, k)
				} else {
					out[k] = val
				}
				return out
			}

			for m, good := range info {
				str, isStr := good.(string)
				if bad, ok := invalidMember(m, str); isStr && ok {
					requireError(t, post(body(with(m, bad))), 400,
						payments.CodeInvalidBankAccount, "accountInfo."+m)
				}
			}
			for _, m := range v.Required {
				requireError(t, post(body(with(m, nil))), 400,
					payments.CodeInvalidInput, "accountInfo."+m)
			}

			r := post(body(info))
			require.Equal(t, 201, r.Status, "%s", r.Raw)
			got := r.Body["accountInfo"].(map[string]any)
			require.Equal(t, typ, got["accountType"])
			for _, m := range v.Required {
				require.Contains(t, got, m, "the response shows %s", m)
			}
			require.True(t, strings.HasPrefix(r.Body["id"].(string), "ExternalAccount:"), "%s", r.Raw)
			requireError(t, post(body(info)), 409, payments.CodeDuplicateExternalAccount)
		})
	}
}
