package payments_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func timeZero() time.Time { return time.Time{} }

var ctx = context.Background()

func TestNew_RequiresStore(t *testing.T) {
	_, err := payments.New(payments.Config{})
	assert.Error(t, err)
	_, err = payments.New(payments.Config{Store: memstore.New(), IdempotencyRetention: -time.Second})
	assert.Error(t, err)
}

func TestEngine_PlatformSeed(t *testing.T) {
	e := newEnv(t)
	cfg, err := e.eng.PlatformConfig(ctx)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(cfg.ID, "PlatformConfig:"))
	assert.False(t, cfg.IsRegulatedFinancialInstitution)
	assert.False(t, cfg.SkipVerificationPaperwork)
	var codes []string
	for _, c := range cfg.SupportedCurrencies {
		codes = append(codes, c.CurrencyCode)
	}
	assert.Subset(t, codes, []string{"USD", "EUR", "GBP", "MXN", "BRL", "INR", "BTC", "USDC"})

	_, err = payments.New(payments.Config{Store: memstore.New(), Platform: payments.PlatformSeed{Currencies: []string{"XYZ"}}})
	requireCode(t, err, payments.CodeInvalidCurrency)
}

func TestEngine_UpdatePlatformConfig(t *testing.T) {
	t.Run("reports every invalid field and changes nothing", func(t *testing.T) {
		e := newEnv(t)
		before, _ := e.eng.PlatformConfig(ctx)
		bad := "not a url"
		dom := "Not_A_Domain"
		_, err := e.eng.UpdatePlatformConfig(ctx, payments.PlatformConfigUpdate{
			WebhookEndpoint: &bad, UmaDomain: &dom,
			FeeConfigs:           []payments.FeeConfig{{FeeType: "OTHER", SourceCurrency: "EUR", VariableFeeBps: 20000, FixedFee: payments.FixedFee{Amount: -1, Currency: "USD"}}},
			EmbeddedWalletConfig: []byte(`{"otpLength": 2}`),
		})
		requireCode(t, err, payments.CodeInvalidInput, "webhookEndpoint", "umaDomain", "feeConfigs.0.feeType",
			"feeConfigs.0.sourceCurrency", "feeConfigs.0.variableFeeBps", "feeConfigs.0.fixedFee.amount",
			"feeConfigs.0.fixedFee.currency", "embeddedWalletConfig.otpLength")
		after, _ := e.eng.PlatformConfig(ctx)
		assert.Equal(t, before, after)
	})
	t.Run("merges nested objects and fee configs", func(t *testing.T) {
		e := newEnv(t)
		_, err := e.eng.UpdatePlatformConfig(ctx, payments.PlatformConfigUpdate{EmbeddedWalletConfig: []byte(`{"appName":"Acme","otpLength":6}`)})
		require.NoError(t, err)
		fee := payments.FeeConfig{FeeType: "CROSS_CURRENCY_TRANSACTION", SourceCurrency: "USD", VariableFeeBps: 30, FixedFee: payments.FixedFee{Amount: 100, Currency: "USD"}}
		cfg, err := e.eng.UpdatePlatformConfig(ctx, payments.PlatformConfigUpdate{
			EmbeddedWalletConfig: []byte(`{"otpLength":8}`), FeeConfigs: []payments.FeeConfig{fee},
		})
		require.NoError(t, err)
		assert.Equal(t, "Acme", cfg.EmbeddedWalletConfig.AppName)
		assert.Equal(t, 8, cfg.EmbeddedWalletConfig.OtpLength)
		require.Len(t, cfg.FeeConfigs, 1)
		fee.VariableFeeBps, fee.FixedFee.Amount = 0, 0
		cfg, err = e.eng.UpdatePlatformConfig(ctx, payments.PlatformConfigUpdate{FeeConfigs: []payments.FeeConfig{fee}})
		require.NoError(t, err)
		assert.Empty(t, cfg.FeeConfigs, "zero amounts deactivate the fee config")
	})
	t.Run("platform kind is settable only in the sandbox", func(t *testing.T) {
		yes := true
		prod := newEnv(t, func(c *payments.Config) { c.Sandbox = false })
		_, err := prod.eng.UpdatePlatformConfig(ctx, payments.PlatformConfigUpdate{IsRegulatedFinancialInstitution: &yes})
		requireCode(t, err, payments.CodeInvalidInput, "isRegulatedFinancialInstitution")
		sb := newEnv(t)
		cfg, err := sb.eng.UpdatePlatformConfig(ctx, payments.PlatformConfigUpdate{IsRegulatedFinancialInstitution: &yes, SkipVerificationPaperwork: &yes})
		require.NoError(t, err)
		assert.True(t, cfg.IsRegulatedFinancialInstitution)
		assert.True(t, cfg.SkipVerificationPaperwork)
	})
}

func TestEngine_Tokens(t *testing.T) {
	e := newEnv(t)
	t.Run("ErrInvalidInput", func(t *testing.T) {
		_, err := e.eng.CreateToken(ctx, payments.CreateTokenRequest{Permissions: []payments.Permission{"VIEW", "ROOT", "VIEW"}})
		requireCode(t, err, payments.CodeInvalidInput, "name", "permissions.1", "permissions.2")
	})
	tok, err := e.eng.CreateToken(ctx, payments.CreateTokenRequest{Name: "ops", Permissions: []payments.Permission{payments.PermView}})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(tok.ID, "Token:"))
	assert.Len(t, tok.ClientID, 32)
	assert.NotEmpty(t, tok.ClientSecret)

	got, err := e.eng.Authenticate(ctx, tok.ClientID, tok.ClientSecret)
	require.NoError(t, err)
	assert.Equal(t, tok.ID, got.ID)
	_, err = e.eng.Authenticate(ctx, tok.ID, tok.ClientSecret)
	require.NoError(t, err, "the token id is accepted as the Basic user too")
	for _, c := range [][2]string{{tok.ClientID, "wrong"}, {"nobody", tok.ClientSecret}, {"", ""}, {tok.ClientID, ""}} {
		_, err = e.eng.Authenticate(ctx, c[0], c[1])
		requireCode(t, err, payments.CodeUnauthorized)
	}

	read, err := e.eng.Token(ctx, tok.ID)
	require.NoError(t, err)
	assert.Equal(t, tok.Token, *read)
	require.NoError(t, e.eng.DeleteToken(ctx, tok.ID))
	_, err = e.eng.Authenticate(ctx, tok.ClientID, tok.ClientSecret)
	requireCode(t, err, payments.CodeUnauthorized)
	_, err = e.eng.Token(ctx, tok.ID)
	requireCode(t, err, payments.CodeTokenNotFound)
	requireCode(t, e.eng.DeleteToken(ctx, tok.ID), payments.CodeTokenNotFound)
}

func TestEngine_ListTokens_Pagination(t *testing.T) {
	e := newEnv(t)
	for i := range 45 {
		_, err := e.eng.CreateToken(ctx, payments.CreateTokenRequest{Name: []string{"a", "b", "c"}[i%3], Permissions: []payments.Permission{payments.PermView}})
		require.NoError(t, err)
	}
	for _, desc := range []bool{false, true} {
		seen := map[string]bool{}
		var last string
		p := payments.ListParams{Desc: desc}
		pages := 0
		for {
			page, err := e.eng.ListTokens(ctx, payments.TokenFilter{}, p)
			require.NoError(t, err)
			assert.Nil(t, page.TotalCount, "a list longer than its first page has no count")
			for _, tk := range page.Data {
				assert.False(t, seen[tk.ID], "duplicate %s", tk.ID)
				seen[tk.ID] = true
				if last != "" {
					assert.Equal(t, desc, tk.ID < last, "order")
				}
				last = tk.ID
			}
			pages++
			if !page.HasMore {
				assert.Empty(t, page.NextCursor)
				break
			}
			p.Cursor = page.NextCursor
		}
		assert.Len(t, seen, 45)
		assert.Equal(t, 3, pages)
	}
	page, err := e.eng.ListTokens(ctx, payments.TokenFilter{Name: "b"}, payments.ListParams{Limit: 100})
	require.NoError(t, err)
	require.NotNil(t, page.TotalCount, "a first page holding every match counts them")
	assert.Equal(t, 15, *page.TotalCount)
	assert.False(t, page.HasMore)

	_, err = e.eng.ListTokens(ctx, payments.TokenFilter{}, payments.ListParams{Limit: 101})
	requireCode(t, err, payments.CodeInvalidInput, "limit")
	_, err = e.eng.ListTokens(ctx, payments.TokenFilter{}, payments.ListParams{Cursor: "garbage!"})
	requireCode(t, err, payments.CodeInvalidInput, "cursor")
}

func TestEngine_Idempotent(t *testing.T) {
	e := newEnv(t)
	var runs atomic.Int32
	do := func() payments.Response {
		runs.Add(1)
		return payments.Response{Status: 201, Body: []byte(`{"n":1}`)}
	}
	r1, replayed, err := e.eng.Idempotent(ctx, "POST /x", "k1", []byte("body"), do)
	require.NoError(t, err)
	assert.False(t, replayed)
	r2, replayed, err := e.eng.Idempotent(ctx, "POST /x", "k1", []byte("body"), do)
	require.NoError(t, err)
	assert.True(t, replayed)
	assert.Equal(t, r1, r2)
	assert.EqualValues(t, 1, runs.Load())

	t.Run("ErrConflict on another request", func(t *testing.T) {
		_, _, err := e.eng.Idempotent(ctx, "POST /x", "k1", []byte("other"), do)
		requireCode(t, err, payments.CodeConflict)
		assert.EqualValues(t, 1, runs.Load())
	})
	t.Run("ErrInvalidInput on a long key", func(t *testing.T) {
		_, _, err := e.eng.Idempotent(ctx, "POST /x", strings.Repeat("k", 256), nil, do)
		requireCode(t, err, payments.CodeInvalidInput, "Idempotency-Key")
	})
	t.Run("scopes are separate", func(t *testing.T) {
		_, replayed, err := e.eng.Idempotent(ctx, "POST /y", "k1", []byte("other"), do)
		require.NoError(t, err)
		assert.False(t, replayed)
	})
	t.Run("server errors are not remembered", func(t *testing.T) {
		fail := func() payments.Response { runs.Add(1); return payments.Response{Status: 500} }
		before := runs.Load()
		_, _, _ = e.eng.Idempotent(ctx, "POST /z", "k", nil, fail)
		_, replayed, _ := e.eng.Idempotent(ctx, "POST /z", "k", nil, fail)
		assert.False(t, replayed)
		assert.Equal(t, before+2, runs.Load())
	})
	t.Run("keys expire after the retention", func(t *testing.T) {
		before := runs.Load()
		e.clock.Advance(24*time.Hour + time.Second)
		_, replayed, err := e.eng.Idempotent(ctx, "POST /x", "k1", []byte("other body now fine"), do)
		require.NoError(t, err)
		assert.False(t, replayed)
		assert.Equal(t, before+1, runs.Load())
	})
}

func TestEngine_Idempotent_ConcurrentExecuteOnce(t *testing.T) {
	e := newEnv(t)
	var runs atomic.Int32
	release := make(chan struct{})
	do := func() payments.Response {
		runs.Add(1)
		<-release
		return payments.Response{Status: 200, Body: []byte(`{"ok":true}`)}
	}
	var wg sync.WaitGroup
	results := make(chan payments.Response, 50)
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, _, err := e.eng.Idempotent(ctx, "POST /q", "same", []byte("b"), do)
			if assert.NoError(t, err) {
				results <- r
			}
		}()
	}
	time.Sleep(20 * time.Millisecond) // let the waiters pile up behind the first (not a correctness wait)
	close(release)
	wg.Wait()
	close(results)
	assert.EqualValues(t, 1, runs.Load())
	n := 0
	for r := range results {
		assert.JSONEq(t, `{"ok":true}`, string(r.Body))
		n++
	}
	assert.Equal(t, 50, n)
}

func TestEngine_Outbox(t *testing.T) {
	e := newEnv(t)
	hook := "https://hooks.example.com/a"
	_, err := e.eng.UpdatePlatformConfig(ctx, payments.PlatformConfigUpdate{WebhookEndpoint: &hook})
	require.NoError(t, err)
	_, err = e.eng.Flush(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{payments.EventTest}, e.rec.types())
	pending, err := e.eng.PendingEvents(ctx)
	require.NoError(t, err)
	assert.Empty(t, pending)

	t.Run("a rejected change writes no event", func(t *testing.T) {
		bad := "ftp://x"
		_, err := e.eng.UpdatePlatformConfig(ctx, payments.PlatformConfigUpdate{WebhookEndpoint: &bad})
		requireCode(t, err, payments.CodeInvalidInput, "webhookEndpoint")
		pending, _ := e.eng.PendingEvents(ctx)
		assert.Empty(t, pending)
	})
	t.Run("a failed TEST event is not retried", func(t *testing.T) {
		e.rec.mu.Lock()
		e.rec.fail = errors.New("receiver down")
		e.rec.mu.Unlock()
		other := "https://hooks.example.com/b"
		_, err := e.eng.UpdatePlatformConfig(ctx, payments.PlatformConfigUpdate{WebhookEndpoint: &other})
		require.NoError(t, err)
		_, err = e.eng.Flush(ctx)
		require.NoError(t, err)
		pending, _ := e.eng.PendingEvents(ctx)
		assert.Empty(t, pending, "TEST deliveries are never retried (wire-facts 3.3)")
	})
	t.Run("permanent failures go to the dead letters", func(t *testing.T) {
		e.rec.mu.Lock()
		e.rec.fail = payments.ErrPermanent
		e.rec.mu.Unlock()
		third := "https://hooks.example.com/c"
		_, err := e.eng.UpdatePlatformConfig(ctx, payments.PlatformConfigUpdate{WebhookEndpoint: &third})
		require.NoError(t, err)
		_, _ = e.eng.Flush(ctx)
		pending, _ := e.eng.PendingEvents(ctx)
		assert.Empty(t, pending)
	})
}

func TestRetryPolicy_Backoff(t *testing.T) {
	p := payments.RetryPolicy{Initial: time.Second, Max: 10 * time.Second}
	assert.Equal(t, time.Second, p.Backoff(1))
	assert.Equal(t, 2*time.Second, p.Backoff(2))
	assert.Equal(t, 8*time.Second, p.Backoff(4))
	assert.Equal(t, 10*time.Second, p.Backoff(9))
}

func TestCodes_EveryCodeHasAStatus(t *testing.T) {
	for _, c := range payments.Codes() {
		s := c.Status()
		assert.True(t, s >= 400 && s < 600, "%s -> %d", c, s)
	}
	assert.Equal(t, 500, payments.Code("NO_SUCH_CODE").Status())
	assert.Equal(t, 409, payments.CodeConflict.Status())
	assert.Equal(t, payments.CodeNotFound, payments.CodeOf(payments.ErrNotFound))
	assert.Equal(t, payments.CodeInternalError, payments.CodeOf(errors.New("boom")))
	assert.Equal(t, "an internal error occurred", payments.MessageOf(errors.New("secret internals")))
}
