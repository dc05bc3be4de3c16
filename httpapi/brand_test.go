package httpapi_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/wirecheck"
)

// A branded handler reads the signed-retry stamp from <Brand>-Wallet-Signature
// and names that header in its refusals; the default header is not read.
func TestBrand_SignedRetries(t *testing.T) {
	s := walletServer(t)
	acme := s.branded("Acme")
	id, acct := acme.wallet(set("currencies", []string{"USD", "EUR"}))
	se := acme.otpLogin(acme.credentialOf(acct, "EMAIL_OTP"), "EMAIL_OTP")

	body := map[string]any{"type": "SMS_OTP", "accountId": acct}
	first := acme.do("POST", "/auth/credentials", body)
	require.Equal(t, 202, first.Status, "%s", first.Raw)
	stamp, reqID := stampOf(t, se.Key, first.Body["payloadToSign"].(string)), first.Body["requestId"].(string)
	neutral := acme.do("POST", "/auth/credentials", body, "Service-Wallet-Signature", stamp, "Request-Id", reqID)
	requireError(t, neutral, 401, payments.CodeWalletSignatureMissing)
	assert.Contains(t, neutral.Body["message"], "Acme-Wallet-Signature")
	assert.NotContains(t, string(neutral.Raw), "Service")
	done := acme.do("POST", "/auth/credentials", body, "Acme-Wallet-Signature", stamp, "Request-Id", reqID)
	require.Equal(t, 201, done.Status, "%s", done.Raw)

	// A wallet quote: its rate details carry the brand, and it executes with
	// the brand's header.
	require.Equal(t, 200, acme.do("POST", "/sandbox/internal-accounts/"+acct+"/fund", map[string]any{"amount": 50000}).Status)
	q := acme.do("POST", "/quotes", quoteBody(acct, acme.eurAccount(id, "DE89370400440532013000"), 10000))
	require.Equal(t, 201, q.Status, "%s", q.Raw)
	rd := q.Body["rateDetails"].(map[string]any)
	for _, f := range []string{"acmeApiMultiplier", "acmeApiFixedFee", "acmeApiVariableFeeRate", "acmeApiVariableFeeAmount"} {
		assert.Contains(t, rd, f)
	}
	assert.NotContains(t, string(q.Raw), "serviceApi")
	assert.Contains(t, string(s.do("GET", "/quotes/"+q.Body["id"].(string), nil).Raw), "serviceApiMultiplier", "the default view is unchanged")
	payload := q.Body["paymentInstructions"].([]any)[0].(map[string]any)["accountOrWalletInfo"].(map[string]any)["payloadToSign"].(string)
	exec := "/quotes/" + q.Body["id"].(string) + "/execute"
	missing := acme.do("POST", exec, nil, "Service-Wallet-Signature", stampOf(t, se.Key, payload))
	requireError(t, missing, 401, payments.CodeWalletSignatureMissing)
	assert.Contains(t, missing.Body["message"], "Acme-Wallet-Signature")
	x := acme.do("POST", exec, nil, "Acme-Wallet-Signature", stampOf(t, se.Key, payload))
	require.Equal(t, 200, x.Status, "%s", x.Raw)
}

// A branded handler renames the codes and fields that carry the neutral
// word in answers, and takes the brand's names in request bodies and query
// parameters; SERVICE_UNAVAILABLE is not the brand's word.
func TestBrand_CodesAndFields(t *testing.T) {
	s := stableServer(t)
	link(s, "client-1")
	coin := register(s, "ACME", "btkn1acme", "").Body["id"].(string)
	wallet, bank := sparkWallet(s), usdBank(s, "123456789")
	acme := s.branded("Acme")

	r := acme.do("GET", "/stablecoins/"+coin, nil)
	require.Equal(t, 200, r.Status, "%s", r.Raw)
	assert.Equal(t, "NOT_ENABLED", r.Body["acmeOperationsStatus"])
	assert.NotContains(t, r.Body, "serviceOperationsStatus")
	count := func(q string) any { return acme.do("GET", "/stablecoins?"+q, nil).Body["totalCount"] }
	assert.EqualValues(t, 1, count("acmeOperationsStatus=NOT_ENABLED"))
	assert.EqualValues(t, 0, count("acmeOperationsStatus=ENABLED"), "the filter is read")
	requireError(t, acme.do("GET", "/stablecoins?acmeOperationsStatus=DONE", nil), 400, payments.CodeInvalidInput, "acmeOperationsStatus")

	burn := map[string]any{"amount": cents(100), "source": map[string]any{"type": "ACME_INTERNAL_ACCOUNT", "accountId": "InternalAccount:x"},
		"destination": map[string]any{"type": "EXTERNAL_ACCOUNT", "externalAccountId": bank, "rail": "WIRE"}}
	refused := acme.do("POST", "/stablecoins/"+coin+"/burns", burn, key()...)
	assert.Equal(t, 400, refused.Status, "%s", refused.Raw)
	assert.Equal(t, "STABLECOIN_ACME_OPERATIONS_NOT_ENABLED", refused.Body["code"])
	mint := map[string]any{"amount": cents(1503), "fundingSource": map[string]any{"type": "WIRE"}, "destination": map[string]any{"accountId": wallet}}
	down := acme.do("POST", "/stablecoins/"+coin+"/mints", mint, key()...)
	assert.Equal(t, 503, down.Status, "%s", down.Raw)
	assert.Equal(t, "SERVICE_UNAVAILABLE", down.Body["code"])
}

// referenceBrand is the maker's name the reference carries in its webhook
// signature header (X-<Name>-Signature). It skips the test when the
// reference is absent, and fails it then when CI is set.
func referenceBrand(t *testing.T) (string, []byte) {
	t.Helper()
	wc := wirecheck.Load(t)
	if !wc.Available() {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set but the reference is missing")
		}
		t.Skip("reference not found")
	}
	raw, err := os.ReadFile(wc.Path())
	require.NoError(t, err)
	for _, m := range regexp.MustCompile(`X-(\w+)-Signature`).FindAllSubmatch(raw, -1) {
		if name := string(m[1]); name != payments.DefaultBrand {
			return name, raw
		}
	}
	t.Fatal("the reference names no X-<Name>-Signature header")
	return "", nil
}

// The reference CLI's signed wallet retry, run against a server branded
// with the reference's own name: the 202's payloadToSign is stamped and the
// retry carries <Name>-Wallet-Signature, as the CLI sends it. A server of
// the default brand answers that retry WALLET_SIGNATURE_MISSING.
func TestBrand_ReferenceCLISignedRetry(t *testing.T) {
	name, reference := referenceBrand(t)
	header := name + "-Wallet-Signature"
	require.Contains(t, string(reference), header, "the reference's clients send this header")
	s := walletServer(t)
	ref := s.branded(name)
	id, acct := ref.wallet(set("currencies", []string{"USD", "EUR"}))
	se := ref.otpLogin(ref.credentialOf(acct, "EMAIL_OTP"), "EMAIL_OTP")

	// A credential action: 202 with payloadToSign, then the stamped retry.
	body := map[string]any{"type": "SMS_OTP", "accountId": acct}
	first := ref.do("POST", "/auth/credentials", body)
	require.Equal(t, 202, first.Status, "%s", first.Raw)
	stamp, reqID := stampOf(t, se.Key, first.Body["payloadToSign"].(string)), first.Body["requestId"].(string)
	requireError(t, s.do("POST", "/auth/credentials", body, header, stamp, "Request-Id", reqID), 401, payments.CodeWalletSignatureMissing)
	done := ref.do("POST", "/auth/credentials", body, header, stamp, "Request-Id", reqID)
	require.Equal(t, 201, done.Status, "%s", done.Raw)
	assert.Equal(t, "SMS_OTP", done.Body["type"])

	// A wallet quote execution, with the fields the reference names.
	require.Equal(t, 200, ref.do("POST", "/sandbox/internal-accounts/"+acct+"/fund", map[string]any{"amount": 50000}).Status)
	q := ref.do("POST", "/quotes", quoteBody(acct, ref.eurAccount(id, "DE89370400440532013000"), 10000))
	require.Equal(t, 201, q.Status, "%s", q.Raw)
	multiplier := strings.ToLower(name[:1]) + name[1:] + "ApiMultiplier"
	require.Contains(t, string(reference), multiplier)
	assert.Contains(t, q.Body["rateDetails"], multiplier)
	payload := q.Body["paymentInstructions"].([]any)[0].(map[string]any)["accountOrWalletInfo"].(map[string]any)["payloadToSign"].(string)
	x := ref.do("POST", "/quotes/"+q.Body["id"].(string)+"/execute", nil, header, stampOf(t, se.Key, payload))
	require.Equal(t, 200, x.Status, "%s", x.Raw)
}
