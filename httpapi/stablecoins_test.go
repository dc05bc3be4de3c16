package httpapi_test

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/btcsuite/btcd/btcutil/bech32"
	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/stablecoins"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stableServer is a sandbox server with the sandbox stablecoin provider,
// rail and rates, and a recording notifier.
func stableServer(t *testing.T) *server {
	rec := &eventRecorder{}
	s := newServer(t, func(c *payments.Config) {
		c.KYC, c.Rail, c.Rates, c.Directory, c.Notifier = sandbox.KYC{}, sandbox.Rail{}, sandbox.Rates{}, sandbox.Directory{}, rec
		c.Stablecoins = sandbox.Stablecoins{}
	})
	recorders.Store(s.eng, rec)
	return s
}

var keyN int

// key returns the headers of a fresh Idempotency-Key.
func key() []string {
	keyN++
	return []string{"Idempotency-Key", "k-" + strconv.Itoa(keyN)}
}

// The stablecoin helpers below take the server rather than being its
// methods: server keeps to what the tests of every area share.

// link links a provider account and returns its id.
func link(s *server, clientID string) string {
	s.t.Helper()
	r := s.do("POST", "/stablecoin-provider-accounts", map[string]any{"provider": "BRALE", "apiClientId": clientID, "apiClientSecret": "sandbox-secret"}, key()...)
	require.Equal(s.t, 201, r.Status, "%s", r.Raw)
	return r.Body["id"].(string)
}

// register registers a token and returns the stablecoin.
func register(s *server, token, network string, linkID string) response {
	s.t.Helper()
	body := map[string]any{"providerTokenIdentifier": token, "networkTokenIdentifier": network, "network": "SPARK"}
	if linkID != "" {
		body["stablecoinProviderAccountId"] = linkID
	}
	return s.do("POST", "/stablecoins", body, key()...)
}

// platformAccount creates a platform external account and returns its id.
func platformAccount(s *server, currency string, info map[string]any) string {
	s.t.Helper()
	r := s.do("POST", "/platform/external-accounts", map[string]any{"currency": currency, "accountInfo": info})
	require.Equal(s.t, 201, r.Status, "%s", r.Raw)
	return r.Body["id"].(string)
}

// sparkAddress returns a fresh, well-formed Spark address.
func sparkAddress(t testing.TB) string {
	k, err := secp256k1.GeneratePrivateKey()
	require.NoError(t, err)
	data, err := bech32.ConvertBits(append([]byte{0x0a, 33}, k.PubKey().SerializeCompressed()...), 8, 5, true)
	require.NoError(t, err)
	addr, err := bech32.EncodeM("spark", data)
	require.NoError(t, err)
	return addr
}

// sparkWallet creates a platform Spark wallet and returns its id.
func sparkWallet(s *server) string {
	return platformAccount(s, "BTC", map[string]any{"accountType": "SPARK_WALLET", "address": sparkAddress(s.t)})
}

// usdBank creates a platform US bank account numbered number and returns
// its id.
func usdBank(s *server, number string) string {
	return platformAccount(s, "USD", map[string]any{"accountType": "USD_ACCOUNT", "accountNumber": number, "routingNumber": "021000021",
		"beneficiary": map[string]any{"beneficiaryType": "BUSINESS", "legalName": "Issuer Inc"}})
}

// step advances the clock and runs due work.
func step(s *server, d time.Duration) {
	s.t.Helper()
	s.clock.Advance(d)
	_, err := s.eng.ProcessDue(ctx)
	require.NoError(s.t, err)
}

// opStatus returns the status of the stablecoin operation id.
func opStatus(s *server, id string) string {
	s.t.Helper()
	r := s.do("GET", "/stablecoin-operations/"+id, nil)
	require.Equal(s.t, 200, r.Status, "%s", r.Raw)
	return r.Body["status"].(string)
}

// reserve returns the available and held amounts of coin's reserve.
func reserve(s *server, coin string) (int64, int64) {
	s.t.Helper()
	a, h, err := s.eng.Stablecoins.Reserve(ctx, coin)
	require.NoError(s.t, err)
	return a, h
}

func TestStablecoins_ProviderAccounts(t *testing.T) {
	s := stableServer(t)
	body := map[string]any{"provider": "BRALE", "apiClientId": "client-1", "apiClientSecret": "sandbox-secret"}

	requireError(t, s.do("POST", "/stablecoin-provider-accounts", body), 400, payments.CodeInvalidInput, "Idempotency-Key")
	requireError(t, s.do("POST", "/stablecoin-provider-accounts", map[string]any{"provider": "CIRCLE"}, key()...), 400,
		payments.CodeInvalidInput, "provider", "apiClientId", "apiClientSecret")
	requireError(t, s.do("POST", "/stablecoin-provider-accounts", map[string]any{"provider": "BRALE", "apiClientId": "c", "apiClientSecret": "invalid-secret"}, key()...),
		400, payments.CodeStablecoinVerificationFailed)

	k := key()
	r := s.do("POST", "/stablecoin-provider-accounts", body, k...)
	require.Equal(t, 201, r.Status, "%s", r.Raw)
	assert.Equal(t, "ACTIVE", r.Body["status"])
	assert.Equal(t, "SANDBOX", r.Body["providerEnvironment"])
	assert.NotEmpty(t, r.Body["providerAccountId"])
	assert.NotEmpty(t, r.Body["lastVerifiedAt"])
	assert.NotContains(t, string(r.Raw), "sandbox-secret", "the secret is write-only")
	assert.NotContains(t, r.Body, "apiClientSecret")
	id := r.Body["id"].(string)

	again := s.do("POST", "/stablecoin-provider-accounts", body, k...)
	require.Equal(t, 201, again.Status)
	assert.Equal(t, id, again.Body["id"], "a replay returns the prior result")
	assert.Equal(t, "true", again.Header.Get("Idempotent-Replayed"))
	requireError(t, s.do("POST", "/stablecoin-provider-accounts", map[string]any{"provider": "BRALE", "apiClientId": "client-2", "apiClientSecret": "sandbox-secret"}, k...),
		409, payments.CodeConflict)
	requireError(t, s.do("POST", "/stablecoin-provider-accounts", body, key()...), 409, payments.CodeConflict)

	got := s.do("GET", "/stablecoin-provider-accounts/"+id, nil)
	require.Equal(t, 200, got.Status)
	assert.NotContains(t, string(got.Raw), "sandbox-secret")
	requireError(t, s.do("GET", "/stablecoin-provider-accounts/StablecoinProviderAccount:nope", nil), 404, payments.CodeStablecoinProviderAccountNotFound)

	other := link(s, "client-3")
	_, err := s.eng.Stablecoins.SetProviderAccountStatus(ctx, other, stablecoins.LinkRevoked)
	require.NoError(t, err)
	list := s.do("GET", "/stablecoin-provider-accounts?status=ACTIVE&provider=BRALE", nil)
	require.Equal(t, 200, list.Status, "%s", list.Raw)
	assert.EqualValues(t, 1, list.Body["totalCount"])
	assert.EqualValues(t, 2, s.do("GET", "/stablecoin-provider-accounts", nil).Body["totalCount"])
	assert.Equal(t, "REVOKED", s.do("GET", "/stablecoin-provider-accounts/"+other, nil).Body["status"])
	requireError(t, s.do("GET", "/stablecoin-provider-accounts?status=GONE", nil), 400, payments.CodeInvalidInput, "status")
}

func TestStablecoins_Register(t *testing.T) {
	s := stableServer(t)
	requireError(t, register(s, "ACME", "btkn1acme", ""), 404, payments.CodeStablecoinProviderAccountNotFound)
	requireError(t, s.do("POST", "/stablecoins", map[string]any{"providerTokenIdentifier": "ACME", "networkTokenIdentifier": "btkn1acme", "network": "SPARK"}),
		400, payments.CodeInvalidInput, "Idempotency-Key")
	requireError(t, s.do("POST", "/stablecoins", map[string]any{"network": "ETHEREUM"}, key()...), 400, payments.CodeInvalidInput,
		"providerTokenIdentifier", "networkTokenIdentifier", "network")

	first := link(s, "client-1")
	requireError(t, register(s, "acme", "btkn1acme", ""), 400, payments.CodeStablecoinVerificationFailed)
	r := register(s, "ACME", "btkn1acme", "")
	require.Equal(t, 201, r.Status, "%s", r.Raw)
	coin := r.Body["id"].(string)
	assert.Equal(t, "ACME", r.Body["symbol"])
	assert.EqualValues(t, 6, r.Body["decimals"])
	assert.Equal(t, "USD", r.Body["baseCurrency"])
	assert.Equal(t, "PROVISIONED", r.Body["issuanceStatus"])
	assert.Equal(t, "NOT_ENABLED", r.Body["serviceOperationsStatus"])
	assert.Equal(t, first, r.Body["stablecoinProviderAccountId"])
	assert.NotContains(t, r.Body, "gridOperationsStatus")
	assert.NotContains(t, r.Body, "currency", "no Service currency before it is enabled")

	requireError(t, register(s, "ACME", "btkn1other", ""), 409, payments.CodeStablecoinTokenIdentifierAlreadyExists)
	requireError(t, register(s, "BETA", "btkn1acme", ""), 409, payments.CodeStablecoinTokenIdentifierAlreadyExists)
	requireError(t, register(s, "ACME.v2", "btkn1acme2", ""), 409, payments.CodeStablecoinSymbolAlreadyExists)

	second := link(s, "client-2")
	requireError(t, register(s, "BETA", "btkn1beta", ""), 400, payments.CodeStablecoinProviderAccountSelectionRequired)
	b := register(s, "BETA", "btkn1beta", second)
	require.Equal(t, 201, b.Status, "%s", b.Raw)
	assert.Equal(t, second, b.Body["stablecoinProviderAccountId"])
	requireError(t, register(s, "GAMMA", "btkn1gamma", "StablecoinProviderAccount:nope"), 404, payments.CodeStablecoinProviderAccountNotFound)

	_, err := s.eng.Stablecoins.SetProviderAccountStatus(ctx, second, stablecoins.LinkInvalid)
	require.NoError(t, err)
	requireError(t, register(s, "GAMMA", "btkn1gamma", second), 400, payments.CodeStablecoinProviderAccountInvalid)
	_, err = s.eng.Stablecoins.SetProviderAccountStatus(ctx, first, stablecoins.LinkRevoked)
	require.NoError(t, err)
	requireError(t, register(s, "GAMMA", "btkn1gamma", first), 400, payments.CodeStablecoinProviderAccountRevoked)
	requireError(t, register(s, "GAMMA", "btkn1gamma", ""), 400, payments.CodeStablecoinProviderAccountInvalid)
	_, err = s.eng.Stablecoins.SetProviderAccountStatus(ctx, second, stablecoins.LinkRevoked)
	require.NoError(t, err)
	requireError(t, register(s, "GAMMA", "btkn1gamma", ""), 400, payments.CodeStablecoinProviderAccountRevoked)

	got := s.do("GET", "/stablecoins/"+coin, nil)
	require.Equal(t, 200, got.Status)
	assert.Equal(t, "ACME", got.Body["symbol"])
	requireError(t, s.do("GET", "/stablecoins/Stablecoin:nope", nil), 404, payments.CodeStablecoinNotFound)
	assert.EqualValues(t, 2, s.do("GET", "/stablecoins?provider=BRALE&issuanceStatus=PROVISIONED", nil).Body["totalCount"])
	requireError(t, s.do("GET", "/stablecoins?issuanceStatus=DONE", nil), 400, payments.CodeInvalidInput, "issuanceStatus")
}

func TestStablecoins_Enablement(t *testing.T) {
	s := stableServer(t)
	link(s, "client-1")
	coin := register(s, "ACME", "btkn1acme", "").Body["id"].(string)
	status := func() string { return s.do("GET", "/stablecoins/"+coin, nil).Body["serviceOperationsStatus"].(string) }
	count := func(st string) any {
		return s.do("GET", "/stablecoins?serviceOperationsStatus="+st, nil).Body["totalCount"]
	}
	assert.EqualValues(t, 1, count("NOT_ENABLED"))

	_, err := s.eng.Stablecoins.SetOperationsStatus(ctx, coin, stablecoins.OpsEnabled)
	assert.Equal(t, payments.CodeInvalidStateTransition, payments.CodeOf(err), "the operator cannot skip approval")
	_, err = s.eng.Stablecoins.RequestEnablement(ctx, coin)
	require.NoError(t, err)
	assert.Equal(t, "PENDING_APPROVAL", status())
	_, err = s.eng.Stablecoins.RequestEnablement(ctx, coin)
	require.NoError(t, err, "a repeat while PENDING_APPROVAL succeeds")
	assert.EqualValues(t, 1, count("PENDING_APPROVAL"))
	assert.EqualValues(t, 0, count("NOT_ENABLED"))

	for _, st := range []stablecoins.OpsStatus{stablecoins.OpsEnabling, stablecoins.OpsEnabled, stablecoins.OpsDisabled} {
		_, err = s.eng.Stablecoins.SetOperationsStatus(ctx, coin, st)
		require.NoError(t, err)
		assert.Equal(t, string(st), status())
		assert.EqualValues(t, 1, count(string(st)))
		_, err = s.eng.Stablecoins.RequestEnablement(ctx, coin)
		assert.Equal(t, payments.CodeStablecoinServiceEnablementNotRequestable, payments.CodeOf(err), "from %s", st)
		assert.Equal(t, 409, payments.CodeOf(err).Status())
	}
	assert.Equal(t, "ACME", s.do("GET", "/stablecoins/"+coin, nil).Body["currency"], "an enabled stablecoin has a Service currency")
	_, err = s.eng.Stablecoins.RequestEnablement(ctx, "Stablecoin:nope")
	assert.Equal(t, payments.CodeStablecoinNotFound, payments.CodeOf(err))
}

// cents is the amount in 6-decimal token units worth c cents.
func cents(c int64) string { return fmt.Sprint(c * 10_000) }

func TestStablecoins_MintLifecycles(t *testing.T) {
	s := stableServer(t)
	link(s, "client-1")
	coin := register(s, "ACME", "btkn1acme", "").Body["id"].(string)
	wallet, bank := sparkWallet(s), usdBank(s, "123456789")
	mints := "/stablecoins/" + coin + "/mints"
	wire := func(amount string) map[string]any {
		return map[string]any{"amount": amount, "fundingSource": map[string]any{"type": "WIRE"}, "destination": map[string]any{"accountId": wallet}}
	}
	ach := func(amount string) map[string]any {
		return map[string]any{"amount": amount, "fundingSource": map[string]any{"type": "ACH_DEBIT", "externalAccountId": bank},
			"destination": map[string]any{"accountId": wallet}, "description": "treasury top-up"}
	}

	t.Run("refusals", func(t *testing.T) {
		requireError(t, s.do("POST", mints, wire(cents(100))), 400, payments.CodeInvalidInput, "Idempotency-Key")
		requireError(t, s.do("POST", mints, map[string]any{"amount": 12}, key()...), 400, payments.CodeInvalidInput, "amount")
		requireError(t, s.do("POST", mints, map[string]any{"amount": "1x", "fundingSource": map[string]any{"type": "CASH"}, "destination": map[string]any{"accountId": "Customer:1"}}, key()...),
			400, payments.CodeInvalidInput, "amount", "fundingSource.type", "destination.accountId")
		requireError(t, s.do("POST", mints, map[string]any{"amount": "0", "fundingSource": map[string]any{"type": "ACH_DEBIT"}, "destination": map[string]any{}}, key()...),
			400, payments.CodeInvalidInput, "amount", "fundingSource.externalAccountId", "destination.accountId")
		requireError(t, s.do("POST", mints, wire("1234567"), key()...), 400, payments.CodeStablecoinAmountNotRepresentable)
		requireError(t, s.do("POST", "/stablecoins/Stablecoin:nope/mints", wire(cents(100)), key()...), 404, payments.CodeStablecoinNotFound)
		bad := wire(cents(100))
		bad["destination"] = map[string]any{"accountId": "ExternalAccount:nope"}
		requireError(t, s.do("POST", mints, bad, key()...), 404, payments.CodeStablecoinExternalAccountNotFound)
		bad["destination"] = map[string]any{"accountId": bank}
		requireError(t, s.do("POST", mints, bad, key()...), 400, payments.CodeStablecoinExternalAccountNotSupported)
		bad = ach(cents(100))
		bad["fundingSource"] = map[string]any{"type": "ACH_DEBIT", "externalAccountId": wallet}
		requireError(t, s.do("POST", mints, bad, key()...), 400, payments.CodeStablecoinExternalAccountNotSupported)
		bad["fundingSource"] = map[string]any{"type": "PROVIDER_INTERNAL_BALANCE", "sourceTokenIdentifier": "USDC", "cryptoNetwork": "SPARK"}
		requireError(t, s.do("POST", mints, bad, key()...), 400, payments.CodeStablecoinOperationNotSupported)
		bad = wire(cents(100))
		bad["destination"] = map[string]any{"accountId": "InternalAccount:x"}
		requireError(t, s.do("POST", mints, bad, key()...), 400, payments.CodeStablecoinServiceOperationsNotEnabled)
		requireError(t, s.do("POST", mints, wire(cents(1503)), key()...), 503, payments.CodeServiceUnavailable)
		requireError(t, s.do("POST", mints, wire(cents(1500)), key()...), 400, payments.CodeStablecoinProviderError)
		pend := register(s, "ACMEPEND", "btkn1pend", "").Body["id"].(string)
		requireError(t, s.do("POST", "/stablecoins/"+pend+"/mints", wire(cents(100)), key()...), 400, payments.CodeStablecoinNotProvisioned)
		a, h := reserve(s, coin)
		assert.Zero(t, a+h)
		s.ledgerOK()
	})

	t.Run("wire: PENDING_FUNDING, funded, PENDING_PROVIDER, PROCESSING, COMPLETED", func(t *testing.T) {
		k := key()
		r := s.do("POST", mints, wire(cents(10_000)), k...)
		require.Equal(t, 201, r.Status, "%s", r.Raw)
		assert.Equal(t, "PENDING_FUNDING", r.Body["status"])
		assert.Equal(t, "MINT", r.Body["operationType"])
		assert.Equal(t, cents(10_000), r.Body["amount"])
		assert.Equal(t, "WIRE", r.Body["fundingInstructions"].(map[string]any)["rail"])
		assert.NotEmpty(t, r.Body["expiresAt"])
		assert.Equal(t, map[string]any{"accountId": wallet}, r.Body["destination"])
		id := r.Body["id"].(string)
		assert.Equal(t, id, s.do("POST", mints, wire(cents(10_000)), k...).Body["id"], "replayed, not minted twice")
		s.ledgerOK()

		_, err := s.eng.Stablecoins.ReportFunding(ctx, id)
		require.NoError(t, err)
		assert.Equal(t, "PENDING_PROVIDER", opStatus(s, id))
		step(s, time.Minute)
		assert.Equal(t, "PROCESSING", opStatus(s, id))
		a, _ := reserve(s, coin)
		assert.Zero(t, a, "nothing is minted before completion")
		step(s, 5*time.Minute)
		assert.Equal(t, "COMPLETED", opStatus(s, id))
		assert.Equal(t, "complete", s.do("GET", "/stablecoin-operations/"+id, nil).Body["providerStatus"])
		a, _ = reserve(s, coin)
		assert.EqualValues(t, 10_000, a)
		s.ledgerOK()
		_, err = s.eng.Stablecoins.ReportFunding(ctx, id)
		assert.Equal(t, payments.CodeInvalidStateTransition, payments.CodeOf(err))
	})

	t.Run("wire: EXPIRED unfunded", func(t *testing.T) {
		r := s.do("POST", mints, wire(cents(700)), key()...)
		require.Equal(t, 201, r.Status, "%s", r.Raw)
		id := r.Body["id"].(string)
		step(s, 72*time.Hour)
		assert.Equal(t, "EXPIRED", opStatus(s, id))
		_, err := s.eng.Stablecoins.ReportFunding(ctx, id)
		assert.Equal(t, payments.CodeInvalidStateTransition, payments.CodeOf(err))
		a, _ := reserve(s, coin)
		assert.EqualValues(t, 10_000, a)
		s.ledgerOK()
	})

	t.Run("ACH: CREATED, PENDING_PROVIDER, PROCESSING, COMPLETED", func(t *testing.T) {
		r := s.do("POST", mints, ach(cents(2_400)), key()...)
		require.Equal(t, 201, r.Status, "%s", r.Raw)
		id := r.Body["id"].(string)
		assert.Equal(t, "CREATED", r.Body["status"])
		assert.Equal(t, "treasury top-up", r.Body["description"])
		assert.Equal(t, bank, r.Body["source"].(map[string]any)["externalAccountId"])
		assert.NotContains(t, r.Body, "fundingInstructions")
		for _, want := range []struct {
			d      time.Duration
			status string
		}{{time.Minute, "PENDING_PROVIDER"}, {2 * time.Minute, "PROCESSING"}, {10 * time.Minute, "COMPLETED"}} {
			step(s, want.d)
			assert.Equal(t, want.status, opStatus(s, id))
			s.ledgerOK()
		}
		a, _ := reserve(s, coin)
		assert.EqualValues(t, 12_400, a)
	})

	t.Run("ACH: FAILED", func(t *testing.T) {
		r := s.do("POST", mints, ach(cents(1_002)), key()...)
		require.Equal(t, 201, r.Status, "%s", r.Raw)
		id := r.Body["id"].(string)
		step(s, time.Minute)
		step(s, 2*time.Minute)
		step(s, 10*time.Minute)
		got := s.do("GET", "/stablecoin-operations/"+id, nil)
		assert.Equal(t, "FAILED", got.Body["status"])
		assert.Equal(t, "PROVIDER_REJECTED", got.Body["failureReason"])
		a, _ := reserve(s, coin)
		assert.EqualValues(t, 12_400, a, "a failed mint adds nothing")
		s.ledgerOK()
	})

	list := s.do("GET", "/stablecoins/"+coin+"/operations?operationType=MINT&limit=2", nil)
	require.Equal(t, 200, list.Status, "%s", list.Raw)
	assert.Len(t, list.Body["data"], 2)
	assert.Equal(t, true, list.Body["hasMore"])
	next := s.do("GET", "/stablecoins/"+coin+"/operations?operationType=MINT&limit=2&cursor="+list.Body["nextCursor"].(string), nil)
	assert.Len(t, next.Body["data"], 2)
	assert.EqualValues(t, 0, s.do("GET", "/stablecoins/"+coin+"/operations?operationType=BURN", nil).Body["totalCount"])
	requireError(t, s.do("GET", "/stablecoins/Stablecoin:nope/operations", nil), 404, payments.CodeStablecoinNotFound)
	requireError(t, s.do("GET", "/stablecoin-operations/StablecoinOperation:nope", nil), 404, payments.CodeStablecoinOperationNotFound)
}

func TestStablecoins_BurnLifecycles(t *testing.T) {
	s := stableServer(t)
	link(s, "client-1")
	coin := register(s, "ACME", "btkn1acme", "").Body["id"].(string)
	wallet, bank := sparkWallet(s), usdBank(s, "123456789")
	burns := "/stablecoins/" + coin + "/burns"
	burn := func(source string, c int64, rail string) map[string]any {
		return map[string]any{"amount": cents(c), "source": map[string]any{"type": source},
			"destination": map[string]any{"type": "EXTERNAL_ACCOUNT", "externalAccountId": bank, "rail": rail}}
	}
	// Fund the reserve with a 100-dollar mint.
	m := s.do("POST", "/stablecoins/"+coin+"/mints", map[string]any{"amount": cents(10_000), "fundingSource": map[string]any{"type": "WIRE"},
		"destination": map[string]any{"accountId": wallet}}, key()...)
	require.Equal(t, 201, m.Status, "%s", m.Raw)
	_, err := s.eng.Stablecoins.ReportFunding(ctx, m.Body["id"].(string))
	require.NoError(t, err)
	step(s, time.Minute)
	step(s, 5*time.Minute)

	t.Run("refusals", func(t *testing.T) {
		requireError(t, s.do("POST", burns, burn("PROVIDER_INTERNAL_BALANCE", 100, "ACH_CREDIT")), 400, payments.CodeInvalidInput, "Idempotency-Key")
		requireError(t, s.do("POST", burns, map[string]any{"amount": "-1", "source": map[string]any{"type": "SERVICE_INTERNAL_ACCOUNT"}, "destination": map[string]any{"type": "WALLET", "rail": "SWIFT"}}, key()...),
			400, payments.CodeInvalidInput, "amount", "source.accountId", "destination.type", "destination.externalAccountId", "destination.rail")
		requireError(t, s.do("POST", burns, burn("PROVIDER_INTERNAL_BALANCE", 20_000, "ACH_CREDIT"), key()...), 400, payments.CodeInsufficientFunds)
		requireError(t, s.do("POST", burns, map[string]any{"amount": "10001", "source": map[string]any{"type": "EXTERNAL_ACCOUNT"},
			"destination": map[string]any{"type": "EXTERNAL_ACCOUNT", "externalAccountId": bank, "rail": "WIRE"}}, key()...), 400, payments.CodeStablecoinAmountNotRepresentable)
		w := burn("EXTERNAL_ACCOUNT", 100, "WIRE")
		w["destination"].(map[string]any)["externalAccountId"] = wallet
		requireError(t, s.do("POST", burns, w, key()...), 400, payments.CodeStablecoinExternalAccountNotSupported)
		w["destination"].(map[string]any)["externalAccountId"] = "ExternalAccount:nope"
		requireError(t, s.do("POST", burns, w, key()...), 404, payments.CodeStablecoinExternalAccountNotFound)
		internal := burn("SERVICE_INTERNAL_ACCOUNT", 100, "WIRE")
		internal["source"] = map[string]any{"type": "SERVICE_INTERNAL_ACCOUNT", "accountId": "InternalAccount:x"}
		requireError(t, s.do("POST", burns, internal, key()...), 400, payments.CodeStablecoinServiceOperationsNotEnabled)
		for _, st := range []stablecoins.OpsStatus{stablecoins.OpsEnabling, stablecoins.OpsEnabled} {
			if st == stablecoins.OpsEnabling {
				_, err := s.eng.Stablecoins.RequestEnablement(ctx, coin)
				require.NoError(t, err)
			}
			_, err := s.eng.Stablecoins.SetOperationsStatus(ctx, coin, st)
			require.NoError(t, err)
		}
		requireError(t, s.do("POST", burns, internal, key()...), 400, payments.CodeStablecoinBurnSourceNotSupported)
		a, h := reserve(s, coin)
		assert.EqualValues(t, 10_000, a)
		assert.Zero(t, h)
		s.ledgerOK()
	})

	t.Run("provider balance: held, then paid out", func(t *testing.T) {
		r := s.do("POST", burns, burn("PROVIDER_INTERNAL_BALANCE", 4_000, "ACH_CREDIT"), key()...)
		require.Equal(t, 201, r.Status, "%s", r.Raw)
		id := r.Body["id"].(string)
		assert.Equal(t, "CREATED", r.Body["status"])
		assert.Equal(t, "BURN", r.Body["operationType"])
		assert.Equal(t, map[string]any{"accountId": bank, "rail": "ACH_CREDIT"}, r.Body["destination"])
		assert.Equal(t, map[string]any{"rail": "ACH_CREDIT", "amount": "4000", "currency": "USD", "timing": "1-3 business days"}, r.Body["estimatedDelivery"])
		a, h := reserve(s, coin)
		assert.EqualValues(t, 6_000, a)
		assert.EqualValues(t, 4_000, h)
		s.ledgerOK()
		step(s, time.Minute)
		step(s, 2*time.Minute)
		step(s, 10*time.Minute)
		assert.Equal(t, "COMPLETED", opStatus(s, id))
		a, h = reserve(s, coin)
		assert.EqualValues(t, 6_000, a)
		assert.Zero(t, h)
		s.ledgerOK()
	})

	t.Run("provider balance: FAILED releases the hold", func(t *testing.T) {
		r := s.do("POST", burns, burn("PROVIDER_INTERNAL_BALANCE", 1_002, "RTP_CREDIT"), key()...)
		require.Equal(t, 201, r.Status, "%s", r.Raw)
		step(s, 13*time.Minute)
		step(s, 0)
		step(s, 0)
		assert.Equal(t, "FAILED", opStatus(s, r.Body["id"].(string)))
		a, h := reserve(s, coin)
		assert.EqualValues(t, 6_000, a)
		assert.Zero(t, h)
		s.ledgerOK()
	})

	t.Run("external wallet: PENDING_FUNDING, then funded or EXPIRED", func(t *testing.T) {
		r := s.do("POST", burns, burn("EXTERNAL_ACCOUNT", 1_000, "WIRE"), key()...)
		require.Equal(t, 201, r.Status, "%s", r.Raw)
		assert.Equal(t, "PENDING_FUNDING", r.Body["status"])
		fi := r.Body["fundingInstructions"].(map[string]any)
		assert.Equal(t, "SPARK", fi["rail"])
		assert.Equal(t, "ACME", fi["valueType"])
		assert.NotEmpty(t, fi["address"])
		funded := r.Body["id"].(string)
		x := s.do("POST", burns, burn("EXTERNAL_ACCOUNT", 2_000, "SAME_DAY_ACH_CREDIT"), key()...)
		require.Equal(t, 201, x.Status, "%s", x.Raw)
		expiring := x.Body["id"].(string)
		a, h := reserve(s, coin)
		assert.EqualValues(t, 3_000, a)
		assert.EqualValues(t, 3_000, h)

		_, err := s.eng.Stablecoins.ReportFunding(ctx, funded)
		require.NoError(t, err)
		step(s, time.Minute)
		step(s, 5*time.Minute)
		assert.Equal(t, "COMPLETED", opStatus(s, funded))
		step(s, 24*time.Hour)
		assert.Equal(t, "EXPIRED", opStatus(s, expiring))
		a, h = reserve(s, coin)
		assert.EqualValues(t, 5_000, a, "the expired burn's value is back")
		assert.Zero(t, h)
		s.ledgerOK()
	})
	assert.EqualValues(t, 4, s.do("GET", "/stablecoins/"+coin+"/operations?operationType=BURN", nil).Body["totalCount"])
	assert.EqualValues(t, 5, s.do("GET", "/stablecoins/"+coin+"/operations", nil).Body["totalCount"])
}
