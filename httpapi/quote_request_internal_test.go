package httpapi

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/paygrid/payments"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// quoteBodies are the seeds of FuzzDecodeQuoteRequest: what clients send,
// and what the fast path leaves to encoding/json.
var quoteBodies = []struct {
	body string
	fast bool
}{
	{`{"source":{"sourceType":"ACCOUNT","accountId":"InternalAccount:1"},"destination":{"destinationType":"ACCOUNT","accountId":"ExternalAccount:2"},"lockedCurrencySide":"SENDING","lockedCurrencyAmount":1000}`, true},
	{"{\n  \"lockedCurrencyAmount\" : -0 ,\t\"immediatelyExecute\":true, \"destination\": {\"umaAddress\":\"$bob@uma.example\",\"currency\":\"EUR\",\"destinationType\":\"UMA_ADDRESS\",\"paymentRail\":\"SEPA\"},\r\n\"source\":{\"sourceType\":\"REALTIME_FUNDING\",\"currency\":\"USDC\",\"customerId\":\"Customer:1\",\"cryptoNetwork\":\"SOLANA\"},\"lookupId\":\"Lookup:9\",\"lockedCurrencySide\":\"RECEIVING\"} ", true},
	{`{"source":{},"destination":{},"description":"café ☕","remittanceInformation":"Invoice 7","purposeOfPayment":"GIFT","scaFactor":"TOTP","immediatelyExecute":false,"lockedCurrencyAmount":999999999999999999}`, true},
	{`{}`, true},
	{`{"lockedCurrencyAmount":1000000000000000000}`, false}, // 19 digits
	{`{"lockedCurrencyAmount":1e3}`, false},
	{`{"lockedCurrencyAmount":10.0}`, false},
	{`{"lockedCurrencyAmount":"1000"}`, false},
	{`{"description":"a\"b"}`, false},
	{`{"description":"\u00e9"}`, false},
	{`{"description":null}`, false},
	{`{"SOURCE":{"sourceType":"ACCOUNT"}}`, false},
	{`{"source":{"sourceType":"ACCOUNT","accountID":"x"}}`, false},
	{`{"platformFeeOverride":{"platformFixedFee":{"amount":1,"currency":"USD"},"platformVariableFeeBps":5}}`, false},
	{`{"senderCustomerInfo":{"FULL_NAME":"Ann"}}`, false},
	{`{"immediatelyExecute":truex}`, false},
	{`{"description":"x"} {}`, false},
	{"{\"description\":\"\xff\"}", false}, // invalid UTF-8
	{`[]`, false},
	{``, false},
}

// TestDecodeQuoteRequest: the usual requests take the fast path, and
// anything unusual is left to encoding/json.
func TestDecodeQuoteRequest(t *testing.T) {
	for _, c := range quoteBodies {
		q, ok := decodeQuoteRequest([]byte(c.body))
		assert.Equal(t, c.fast, ok, c.body)
		if ok {
			assertSameAsEncodingJSON(t, c.body, q)
		}
	}
	q, ok := decodeQuoteRequest([]byte(quoteBodies[0].body))
	require.True(t, ok)
	assert.Equal(t, payments.QuoteRequest{Source: payments.QuoteSource{SourceType: payments.SourceAccount, AccountID: "InternalAccount:1"},
		Destination:        payments.QuoteDestination{DestinationType: payments.DestinationAccount, AccountID: "ExternalAccount:2"},
		LockedCurrencySide: payments.LockedSending, LockedCurrencyAmount: 1000}, q)
}

// FuzzDecodeQuoteRequest: what decodeQuoteRequest accepts, request.decode
// (encoding/json) accepts too, and decodes to the same request.
func FuzzDecodeQuoteRequest(f *testing.F) {
	for _, c := range quoteBodies {
		f.Add([]byte(c.body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if q, ok := decodeQuoteRequest(body); ok {
			assertSameAsEncodingJSON(t, string(body), q)
		}
	})
}

func assertSameAsEncodingJSON(t *testing.T, body string, fast payments.QuoteRequest) {
	t.Helper()
	var want payments.QuoteRequest
	if err := (&request{body: []byte(body)}).decode(&want); err != nil {
		t.Fatalf("the fast path accepted %q, encoding/json refused it: %v", body, err)
	}
	if !reflect.DeepEqual(fast, want) {
		t.Fatalf("%q: fast path %+v, encoding/json %+v", body, fast, want)
	}
}

// BenchmarkQuoteBody is what every POST /quotes costs before its handler
// calls the engine: the body checks every JSON body meets (checkBody) and
// the quote request's decoding (decodeQuoteRequest).
func BenchmarkQuoteBody(b *testing.B) {
	body := []byte(quoteBodies[1].body)
	hr := httptest.NewRequest(http.MethodPost, "/quotes", nil)
	hr.Header.Set("Content-Type", "application/json")
	b.ReportAllocs()
	for b.Loop() {
		if err := checkBody(hr, body, DefaultMaxStringLength); err != nil {
			b.Fatal(err)
		}
		if _, ok := decodeQuoteRequest(body); !ok {
			b.Fatal("not decoded")
		}
	}
}
