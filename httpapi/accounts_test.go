package httpapi_test

import (
	"crypto/ed25519"
	"fmt"
	"testing"

	"github.com/btcsuite/btcd/btcutil/bech32"
	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/mr-tron/base58"
	"github.com/paygrid/payments"
	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/walletauth"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func accountServer(t *testing.T) *server {
	return newServer(t, func(c *payments.Config) { c.KYC = sandbox.KYC{}; c.Rail = sandbox.Rail{} })
}

// customer creates an individual and returns its id.
func (s *server) customer(mutate ...func(map[string]any)) string {
	s.t.Helper()
	r := s.do("POST", "/customers", individual(mutate...))
	require.Equal(s.t, 201, r.Status, "%s", r.Raw)
	return r.Body["id"].(string)
}

func usdAccount(customerID, number string) map[string]any {
	return map[string]any{"customerId": customerID, "currency": "USD", "accountInfo": map[string]any{
		"accountType": "USD_ACCOUNT", "accountNumber": number, "routingNumber": "021000021",
		"beneficiary": map[string]any{"beneficiaryType": "INDIVIDUAL", "fullName": "Jane Doe"}}}
}

func TestInternalAccounts_FundAndList(t *testing.T) {
	s := accountServer(t)
	id := s.customer(set("currencies", []string{"USD", "EUR"}))
	list := s.do("GET", "/customers/internal-accounts?customerId="+id, nil)
	require.Equal(t, 200, list.Status, "%s", list.Raw)
	data := list.Body["data"].([]any)
	require.Len(t, data, 2, "one account per requested currency")
	usd := data[0].(map[string]any)
	assert.EqualValues(t, 0, usd["balance"].(map[string]any)["amount"])
	ref := usd["fundingPaymentInstructions"].([]any)[0].(map[string]any)["accountOrWalletInfo"].(map[string]any)["reference"]
	assert.NotEmpty(t, ref)

	f := s.do("POST", "/sandbox/internal-accounts/"+usd["id"].(string)+"/fund", map[string]any{"amount": 12345})
	require.Equal(t, 200, f.Status, "%s", f.Raw)
	assert.EqualValues(t, 12345, f.Body["balance"].(map[string]any)["amount"])
	assert.EqualValues(t, 12345, f.Body["totalBalance"].(map[string]any)["amount"])
	requireError(t, s.do("POST", "/sandbox/internal-accounts/"+usd["id"].(string)+"/fund", map[string]any{"amount": 0}), 400, payments.CodeInvalidInput, "amount")
	requireError(t, s.do("POST", "/sandbox/internal-accounts/InternalAccount:nope/fund", map[string]any{"amount": 1}), 404, payments.CodeAccountNotFound)
	assert.EqualValues(t, 1, s.do("GET", "/customers/internal-accounts?customerId="+id+"&currency=EUR", nil).Body["totalCount"])
	requireError(t, s.do("GET", "/customers/internal-accounts?type=GOLD", nil), 400, payments.CodeInvalidInput, "type")

	platform := s.do("GET", "/platform/internal-accounts?currency=USD", nil)
	require.Equal(t, 200, platform.Status, "%s", platform.Raw)
	assert.EqualValues(t, 1, platform.Body["totalCount"], "the platform holds one account per supported currency")
	require.NoError(t, payments.CheckLedger(ctx, s.store))
}

func TestExternalAccounts_CRUD(t *testing.T) {
	s := accountServer(t)
	id := s.customer()
	a := s.do("POST", "/customers/external-accounts", usdAccount(id, "123456789"))
	require.Equal(t, 201, a.Status, "%s", a.Raw)
	assert.Equal(t, "ACTIVE", a.Body["status"])
	assert.Equal(t, "MATCHED", a.Body["beneficiaryVerificationStatus"])
	assert.Equal(t, []any{"ACH", "WIRE", "RTP", "FEDNOW"}, a.Body["accountInfo"].(map[string]any)["paymentRails"])
	requireError(t, s.do("POST", "/customers/external-accounts", usdAccount(id, "123456789")), 409, payments.CodeDuplicateExternalAccount)

	bad := usdAccount(id, "123456789")
	bad["accountInfo"].(map[string]any)["routingNumber"] = "021000022"
	requireError(t, s.do("POST", "/customers/external-accounts", bad), 400, payments.CodeInvalidBankAccount, "accountInfo.routingNumber")
	missing := usdAccount(id, "1")
	delete(missing["accountInfo"].(map[string]any), "beneficiary")
	missing["currency"] = "EUR"
	requireError(t, s.do("POST", "/customers/external-accounts", missing), 400, payments.CodeInvalidInput, "accountInfo.beneficiary", "currency")
	requireError(t, s.do("POST", "/customers/external-accounts", map[string]any{"currency": "USD"}), 400, payments.CodeInvalidInput, "customerId", "accountInfo")
	requireError(t, s.do("POST", "/customers/external-accounts", usdAccount("Customer:nope", "1")), 404, payments.CodeCustomerNotFound)
	requireError(t, s.do("POST", "/customers/external-accounts", usdAccount(id, "999999105")), 400, payments.CodeInvalidBankAccount)

	for sfx, want := range map[string]string{"102": "NOT_MATCHED", "103": "PARTIAL_MATCH", "104": "PENDING", "106": "UNSUPPORTED", "107": "CHECKED_BY_RECEIVING_FI"} {
		r := s.do("POST", "/customers/external-accounts", usdAccount(id, "55555"+sfx))
		require.Equal(t, 201, r.Status, "%s", r.Raw)
		assert.Equal(t, want, r.Body["beneficiaryVerificationStatus"], sfx)
	}

	aid := a.Body["id"].(string)
	assert.Equal(t, string(a.Raw), string(s.do("GET", "/customers/external-accounts/"+aid, nil).Raw))
	requireError(t, s.do("GET", "/platform/external-accounts/"+aid, nil), 404, payments.CodeAccountNotFound)
	assert.EqualValues(t, 6, s.do("GET", "/customers/external-accounts?customerId="+id+"&currency=USD", nil).Body["totalCount"])

	p := s.do("POST", "/platform/external-accounts", map[string]any{"currency": "EUR", "accountInfo": map[string]any{
		"accountType": "EUR_ACCOUNT", "iban": "DE89370400440532013000", "beneficiary": map[string]any{"beneficiaryType": "BUSINESS", "legalName": "Acme"}}})
	require.Equal(t, 201, p.Status, "%s", p.Raw)
	assert.Nil(t, p.Body["customerId"])
	assert.EqualValues(t, 1, s.do("GET", "/platform/external-accounts", nil).Body["totalCount"])
	requireError(t, s.do("POST", "/platform/external-accounts", usdAccount(id, "1")), 400, payments.CodeInvalidInput, "customerId")
	pid := p.Body["id"].(string)
	assert.Equal(t, 204, s.do("DELETE", "/platform/external-accounts/"+pid, nil).Status)
	requireError(t, s.do("DELETE", "/platform/external-accounts/"+pid, nil), 404, payments.CodeAccountNotFound)

	assert.Equal(t, 204, s.do("DELETE", "/customers/external-accounts/"+aid, nil).Status)
	requireError(t, s.do("GET", "/customers/external-accounts/"+aid, nil), 404, payments.CodeAccountNotFound)
	assert.Equal(t, 201, s.do("POST", "/customers/external-accounts", usdAccount(id, "123456789")).Status, "deleting frees the duplicate key")
}

func TestExternalAccounts_DefaultUmaDeposit(t *testing.T) {
	s := accountServer(t)
	id := s.customer()
	first := usdAccount(id, "111")
	first["defaultUmaDepositAccount"] = true
	a := s.do("POST", "/customers/external-accounts", first)
	second := usdAccount(id, "222")
	second["defaultUmaDepositAccount"] = true
	b := s.do("POST", "/customers/external-accounts", second)
	require.Equal(t, 201, b.Status)
	assert.Equal(t, false, s.do("GET", "/customers/external-accounts/"+a.Body["id"].(string), nil).Body["defaultUmaDepositAccount"], "a new default takes over")
	assert.Equal(t, true, s.do("GET", "/customers/external-accounts/"+b.Body["id"].(string), nil).Body["defaultUmaDepositAccount"])
}

func TestExternalAccounts_Trust(t *testing.T) {
	s := accountServer(t)
	eu := s.customer(set("region", "DE"))
	body := map[string]any{"customerId": eu, "currency": "EUR", "accountInfo": map[string]any{"accountType": "EUR_ACCOUNT",
		"iban": "DE89370400440532013000", "beneficiary": map[string]any{"beneficiaryType": "INDIVIDUAL", "fullName": "Jo", "countryOfResidence": "DE"}}}
	a := s.do("POST", "/customers/external-accounts", body)
	require.Equal(t, 201, a.Status, "%s", a.Raw)
	path := "/customers/external-accounts/" + a.Body["id"].(string)
	requireError(t, s.do("POST", path+"/trust/confirm", map[string]any{"code": "123456"}), 409, payments.CodeConflict)
	start := s.do("POST", path+"/trust", nil)
	require.Equal(t, 200, start.Status, "%s", start.Raw)
	assert.Equal(t, "SMS_OTP", start.Body["scaChallenge"].(map[string]any)["factor"])
	requireError(t, s.do("POST", path+"/trust/confirm", map[string]any{"code": "000000"}), 400, payments.CodeInvalidInput, "code")
	c := s.do("POST", path+"/trust/confirm", map[string]any{"code": "123456"})
	require.Equal(t, 200, c.Status, "%s", c.Raw)
	assert.Equal(t, true, c.Body["trusted"])
	requireError(t, s.do("DELETE", path, nil), 409, payments.CodeBeneficiaryTrusted)
	require.Equal(t, 200, s.do("POST", path+"/untrust", nil).Status)
	assert.Equal(t, false, s.do("POST", path+"/untrust/confirm", map[string]any{"code": "123456"}).Body["trusted"])
	assert.Equal(t, 204, s.do("DELETE", path, nil).Status)

	us := s.customer()
	ua := s.do("POST", "/customers/external-accounts", usdAccount(us, "123"))
	requireError(t, s.do("POST", "/customers/external-accounts/"+ua.Body["id"].(string)+"/trust", nil), 409, payments.CodeConflict)
}

// A trust challenge's code cannot be guessed: TrustCodeAttempts wrong
// codes spend it (429), and the right code then finds no challenge.
func TestExternalAccounts_TrustCodeAttempts(t *testing.T) {
	s := accountServer(t)
	eu := s.customer(set("region", "DE"))
	body := map[string]any{"customerId": eu, "currency": "EUR", "accountInfo": map[string]any{"accountType": "EUR_ACCOUNT",
		"iban": "DE89370400440532013000", "beneficiary": map[string]any{"beneficiaryType": "INDIVIDUAL", "fullName": "Jo", "countryOfResidence": "DE"}}}
	a := s.do("POST", "/customers/external-accounts", body)
	require.Equal(t, 201, a.Status, "%s", a.Raw)
	path := "/customers/external-accounts/" + a.Body["id"].(string)
	require.Equal(t, 200, s.do("POST", path+"/trust", nil).Status)
	for i := 1; i < accounts.TrustCodeAttempts; i++ {
		requireError(t, s.do("POST", path+"/trust/confirm", map[string]any{"code": fmt.Sprintf("%06d", i)}), 400, payments.CodeInvalidInput, "code")
	}
	requireError(t, s.do("POST", path+"/trust/confirm", map[string]any{"code": "999999"}), 429, payments.CodeRateLimited)
	requireError(t, s.do("POST", path+"/trust/confirm", map[string]any{"code": "123456"}), 409, payments.CodeConflict)
	require.Equal(t, 200, s.do("POST", path+"/trust", nil).Status, "a new challenge")
	assert.Equal(t, true, s.do("POST", path+"/trust/confirm", map[string]any{"code": "123456"}).Body["trusted"])
}

// TestExternalAccounts_EveryType creates one account of each type over HTTP.
func TestExternalAccounts_EveryType(t *testing.T) {
	s := accountServer(t)
	id := s.customer()
	evm := "0x52908400098527886e0f7030069857d2e4169ee7"
	cases := map[string]struct {
		currency string
		info     map[string]any
	}{
		"USD_ACCOUNT":     {"USD", map[string]any{"accountNumber": "123", "routingNumber": "021000021"}},
		"EUR_ACCOUNT":     {"EUR", map[string]any{"iban": "FR1420041010050500013M02606", "swiftCode": "BNPAFRPP"}},
		"MXN_ACCOUNT":     {"MXN", map[string]any{"clabeNumber": "032180000118359719"}},
		"GBP_ACCOUNT":     {"GBP", map[string]any{"sortCode": "040004", "accountNumber": "12345678"}},
		"INR_ACCOUNT":     {"INR", map[string]any{"accountNumber": "123456789", "ifsc": "HDFC0001234"}},
		"BRL_ACCOUNT":     {"BRL", map[string]any{"pixKey": "user@pix.com.br", "pixKeyType": "EMAIL", "taxId": "12345678901"}},
		"KES_ACCOUNT":     {"KES", map[string]any{"phoneNumber": "+254712345678", "provider": "MPESA"}},
		"SWIFT_ACCOUNT":   {"USD", map[string]any{"country": "DE", "swiftCode": "DEUTDEFF", "bankName": "Deutsche", "iban": "DE89370400440532013000"}},
		"ETHEREUM_WALLET": {"USDC", map[string]any{"address": evm}},
		"BASE_WALLET":     {"USDC", map[string]any{"address": evm}},
		"SOLANA_WALLET":   {"USDC", map[string]any{"address": "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"}},
		"TRON_WALLET":     {"USDT", map[string]any{"address": "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"}},
		"LIGHTNING":       {"BTC", map[string]any{"lightningAddress": "jane@getalby.com"}},
	}
	for typ, tc := range cases {
		t.Run(typ, func(t *testing.T) {
			info := map[string]any{"accountType": typ}
			for k, v := range tc.info {
				info[k] = v
			}
			if typ != "LIGHTNING" && typ != "ETHEREUM_WALLET" && typ != "BASE_WALLET" && typ != "SOLANA_WALLET" && typ != "TRON_WALLET" {
				info["beneficiary"] = map[string]any{"beneficiaryType": "BUSINESS", "legalName": "Acme"}
			}
			r := s.do("POST", "/customers/external-accounts", map[string]any{"customerId": id, "currency": tc.currency, "accountInfo": info})
			require.Equal(t, 201, r.Status, "%s", r.Raw)
			for k, v := range tc.info {
				if k == "address" || k == "iban" || k == "clabeNumber" || (k == "accountNumber" && typ == "GBP_ACCOUNT") {
					bad := map[string]any{}
					for k2, v2 := range info {
						bad[k2] = v2
					}
					bad[k] = fmt.Sprint(v) + "9"
					requireError(t, s.do("POST", "/customers/external-accounts", map[string]any{"customerId": id, "currency": tc.currency, "accountInfo": bad}),
						400, payments.CodeInvalidBankAccount, "accountInfo."+k)
				}
			}
		})
	}
}

// TestOwnership_PlatformWallet proves the platform's own wallet with a real
// key, through the platform routes.
func TestOwnership_PlatformWallet(t *testing.T) {
	s := accountServer(t)
	key, _ := secp256k1.GeneratePrivateKey()
	r := s.do("POST", "/platform/external-accounts", map[string]any{"currency": "USDC", "ownershipType": "FIRST_PARTY",
		"accountInfo": map[string]any{"accountType": "ETHEREUM_WALLET", "address": walletauth.EVMAddress(key.PubKey())}})
	require.Equal(t, 201, r.Status, "%s", r.Raw)
	require.Equal(t, "PENDING_OWNERSHIP_VERIFICATION", r.Body["status"])
	path := "/platform/external-accounts/" + r.Body["id"].(string)
	c := s.do("POST", path+"/challenge", map[string]any{"method": "WALLET_SIGNATURE"})
	require.Equal(t, 201, c.Status, "%s", c.Raw)
	msg := c.Body["messageToSign"].(string)
	other, _ := secp256k1.GeneratePrivateKey()
	requireError(t, s.do("POST", path+"/verify", map[string]any{"signature": walletauth.SignEIP191(other, []byte(msg))}), 400, payments.CodeInvalidInput, "signature")
	c = s.do("POST", path+"/challenge", map[string]any{"method": "WALLET_SIGNATURE"}) // a failed attempt spends the challenge
	require.Equal(t, 201, c.Status, "%s", c.Raw)
	msg = c.Body["messageToSign"].(string)
	ok := s.do("POST", path+"/verify", map[string]any{"signature": walletauth.SignEIP191(key, []byte(msg))})
	require.Equal(t, 200, ok.Status, "%s", ok.Raw)
	assert.Equal(t, "ACTIVE", ok.Body["status"])
}

// TestOwnership proves wallets with real keys: EVM (EIP-191), Solana
// (Ed25519) and Spark (BIP-137 over its identity key), and the failure paths.
func TestOwnership(t *testing.T) {
	s := accountServer(t)
	id := s.customer()
	wallet := func(typ, currency, address string) string {
		r := s.do("POST", "/customers/external-accounts", map[string]any{"customerId": id, "currency": currency, "ownershipType": "FIRST_PARTY",
			"accountInfo": map[string]any{"accountType": typ, "address": address}})
		require.Equal(t, 201, r.Status, "%s", r.Raw)
		require.Equal(t, "PENDING_OWNERSHIP_VERIFICATION", r.Body["status"])
		return "/customers/external-accounts/" + r.Body["id"].(string)
	}
	challenge := func(path string) string {
		c := s.do("POST", path+"/challenge", map[string]any{"method": "WALLET_SIGNATURE"})
		require.Equal(t, 201, c.Status, "%s", c.Raw)
		return c.Body["messageToSign"].(string)
	}

	key, _ := secp256k1.GeneratePrivateKey()
	evm := wallet("ETHEREUM_WALLET", "USDC", walletauth.EVMAddress(key.PubKey()))
	requireError(t, s.do("POST", evm+"/verify", map[string]any{"signature": "0x00"}), 409, payments.CodeConflict)
	msg := challenge(evm)
	ok := s.do("POST", evm+"/verify", map[string]any{"signature": walletauth.SignEIP191(key, []byte(msg))})
	require.Equal(t, 200, ok.Status, "%s", ok.Raw)
	assert.Equal(t, "ACTIVE", ok.Body["status"])

	pub, priv, _ := ed25519.GenerateKey(nil)
	sol := wallet("SOLANA_WALLET", "USDC", base58.Encode(pub))
	msg = challenge(sol)
	other, _ := secp256k1.GeneratePrivateKey()
	requireError(t, s.do("POST", sol+"/verify", map[string]any{"signature": base58.Encode(ed25519.Sign(priv, []byte("another message")))}), 400, payments.CodeInvalidInput, "signature")
	assert.Equal(t, "UNVERIFIED", s.do("GET", sol, nil).Body["status"])
	requireError(t, s.do("POST", sol+"/verify", map[string]any{"signature": base58.Encode(ed25519.Sign(priv, []byte(msg)))}), 409, payments.CodeConflict)
	msg = challenge(sol)
	s.clock.Advance(payments.SignatureChallengeTTL + 1e9)
	requireError(t, s.do("POST", sol+"/verify", map[string]any{"signature": base58.Encode(ed25519.Sign(priv, []byte(msg)))}), 400, payments.CodeInvalidInput, "signature")
	msg = challenge(sol)
	assert.Equal(t, 200, s.do("POST", sol+"/verify", map[string]any{"signature": base58.Encode(ed25519.Sign(priv, []byte(msg)))}).Status)

	sparkKey, _ := secp256k1.GeneratePrivateKey()
	data, _ := bech32.ConvertBits(append([]byte{0x0a, 33}, sparkKey.PubKey().SerializeCompressed()...), 8, 5, true)
	addr, _ := bech32.EncodeM("spark", data)
	spark := wallet("SPARK_WALLET", "BTC", addr)
	msg = challenge(spark)
	requireError(t, s.do("POST", spark+"/verify", map[string]any{"signature": walletauth.SignBitcoin(other, []byte(msg))}), 400, payments.CodeInvalidInput, "signature")
	msg = challenge(spark)
	r := s.do("POST", spark+"/verify", map[string]any{"signature": walletauth.SignBitcoin(sparkKey, []byte(msg)), "signatureScheme": "electrum"})
	require.Equal(t, 200, r.Status, "%s", r.Raw)

	t.Run("LIVENESS completes asynchronously", func(t *testing.T) {
		k, _ := secp256k1.GeneratePrivateKey()
		w := wallet("BASE_WALLET", "USDC", walletauth.EVMAddress(k.PubKey()))
		c := s.do("POST", w+"/challenge", map[string]any{"method": "LIVENESS"})
		require.Equal(t, 201, c.Status, "%s", c.Raw)
		assert.NotEmpty(t, c.Body["verificationLink"])
		requireError(t, s.do("POST", w+"/verify", map[string]any{"signature": "0x00"}), 409, payments.CodeConflict)
		_, err := s.eng.ProcessDue(ctx)
		require.NoError(t, err)
		assert.Equal(t, "PENDING_OWNERSHIP_VERIFICATION", s.do("GET", w, nil).Body["status"])
		s.clock.Advance(payments.LivenessDelay)
		n, err := s.eng.ProcessDue(ctx)
		require.NoError(t, err)
		assert.Equal(t, 1, n)
		assert.Equal(t, "ACTIVE", s.do("GET", w, nil).Body["status"])
	})
	requireError(t, s.do("POST", evm+"/challenge", nil), 409, payments.CodeConflict)
}
