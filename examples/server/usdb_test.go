package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/walletauth"
)

// TestRun_GlobalAccountUSDB: the server's platform supports USDB from the
// start, as the hosted sandbox does, with USDC's metadata (6 decimals, the
// same bounds); a new customer gets its Global Account (an EMBEDDED_WALLET
// in USDB), and the signed embedded-wallet flow runs on it: a session by
// email OTP, the wallet funded, a quote to the customer's bank account
// executed with the session key's stamp over payloadToSign, completed.
func TestRun_GlobalAccountUSDB(t *testing.T) {
	base, _, _ := startServer(t)
	const cred = "limits-client:limits-secret-0123456789"
	js := func(v any) string {
		b, err := json.Marshal(v)
		require.NoError(t, err)
		return string(b)
	}
	status, cfg := call(t, cred, "GET", base+"/config", "")
	require.Equal(t, 200, status, "%v", cfg)
	byCode := map[string]map[string]any{}
	for _, c := range cfg["supportedCurrencies"].([]any) {
		byCode[c.(map[string]any)["currencyCode"].(string)] = c.(map[string]any)
	}
	require.Contains(t, byCode, "USDB")
	for _, k := range []string{"minAmount", "maxAmount", "enabledTransactionTypes"} {
		assert.Equal(t, byCode["USDC"][k], byCode["USDB"][k], k)
	}

	body := individualBody("global@example.com")
	delete(body, "currencies") // every platform currency
	status, c := call(t, cred, "POST", base+"/customers", js(body))
	require.Equal(t, 201, status, "%v", c)
	id := c["id"].(string)
	status, list := call(t, cred, "GET", base+"/customers/internal-accounts?currency=USDB&customerId="+id, "")
	require.Equal(t, 200, status, "%v", list)
	require.Len(t, list["data"], 1)
	wallet := list["data"].([]any)[0].(map[string]any)
	assert.Equal(t, "EMBEDDED_WALLET", wallet["type"])
	assert.EqualValues(t, 6, wallet["balance"].(map[string]any)["currency"].(map[string]any)["decimals"])
	acct := wallet["id"].(string)

	// A session by the sandbox's email OTP.
	status, creds := call(t, cred, "GET", base+"/auth/credentials?accountId="+acct, "")
	require.Equal(t, 200, status, "%v", creds)
	otp := creds["data"].([]any)[0].(map[string]any)["id"].(string)
	status, ch := call(t, cred, "POST", base+"/auth/credentials/"+otp+"/challenge", "")
	require.Equal(t, 200, status, "%v", ch)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	pub, err := walletauth.CompressedKey(&key.PublicKey)
	require.NoError(t, err)
	sealed, err := walletauth.SealOTP(ch["otpEncryptionTargetBundle"].(string), walletauth.OTPAttempt{Code: payments.SandboxOTPCode, PublicKey: pub})
	require.NoError(t, err)
	verify := js(map[string]any{"type": "EMAIL_OTP", "encryptedOtpBundle": sealed})
	status, pending := call(t, cred, "POST", base+"/auth/credentials/"+otp+"/verify", verify)
	require.Equal(t, 202, status, "%v", pending)
	stamp, err := walletauth.SignStamp(key, []byte(pending["payloadToSign"].(string)))
	require.NoError(t, err)
	status, session := call(t, cred, "POST", base+"/auth/credentials/"+otp+"/verify", verify, "Service-Wallet-Signature", stamp, "Request-Id", pending["requestId"].(string))
	require.Equal(t, 200, status, "%v", session)

	// Funded with 50 USDB, 10 USDB go to the customer's bank account.
	status, funded := call(t, cred, "POST", base+"/sandbox/internal-accounts/"+acct+"/fund", `{"amount":50000000}`)
	require.Equal(t, 200, status, "%v", funded)
	status, bank := call(t, cred, "POST", base+"/customers/external-accounts", js(map[string]any{"customerId": id, "currency": "USD",
		"accountInfo": map[string]any{"accountType": "USD_ACCOUNT", "accountNumber": "123456789", "routingNumber": "021000021",
			"beneficiary": map[string]any{"beneficiaryType": "INDIVIDUAL", "fullName": "Multi Process Doe"}}}))
	require.Equal(t, 201, status, "%v", bank)
	status, q := call(t, cred, "POST", base+"/quotes", js(quoteBody(acct, bank["id"].(string), 10_000_000, false)))
	require.Equal(t, 201, status, "%v", q)
	assert.Equal(t, "USDB", q["sendingCurrency"].(map[string]any)["code"])
	payload := q["paymentInstructions"].([]any)[0].(map[string]any)["accountOrWalletInfo"].(map[string]any)["payloadToSign"].(string)
	qid := q["id"].(string)
	status, x := call(t, cred, "POST", base+"/quotes/"+qid+"/execute", "")
	require.Equal(t, 401, status, "unsigned: %v", x)
	stamp, err = walletauth.SignStamp(key, []byte(payload))
	require.NoError(t, err)
	status, x = call(t, cred, "POST", base+"/quotes/"+qid+"/execute", "", "Service-Wallet-Signature", stamp)
	require.Equal(t, 200, status, "%v", x)
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, got := call(t, cred, "GET", base+"/quotes/"+qid, "")
		if got["status"] == "COMPLETED" || time.Now().After(deadline) {
			require.Equal(t, "COMPLETED", got["status"], "%v", got)
			break
		}
		call(t, cred, "POST", base+"/sandbox/clock/advance", `{"duration":"1h"}`)
	}
	_, list = call(t, cred, "GET", base+"/customers/internal-accounts?currency=USDB&customerId="+id, "")
	assert.EqualValues(t, 40_000_000, list["data"].([]any)[0].(map[string]any)["balance"].(map[string]any)["amount"])
}
