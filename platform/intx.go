package platform

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/money"
)

// The functions other areas call inside their own transactions
// (ARCHITECTURE.md: cross-area calls take the kernel's transaction). Each
// reads or writes this area's records the way its own operations do.

// Reseed writes the seed payments.New was given again, unless a
// configuration exists: the sandbox's reset, which cleared the store, calls
// it inside its own transaction so the engine never runs unconfigured.
func Reseed(t *engine.Txn) error { return WriteSeed(t, platformSlot.Of(t.Handle).Seed) }

// WriteSeed writes, inside t, the platform configuration of seed and opens
// the platform's internal accounts in its currencies, unless a
// configuration exists (then it writes nothing and returns nil). Each
// currency gets the default bounds of defaultCurrencyConfig.
func WriteSeed(t *engine.Txn, seed Seed) error {
	if _, err := t.Get(table, platformKey); !errors.Is(err, engine.ErrNotFound) {
		return err
	}
	id := t.NewID("PlatformConfig")
	codes := seed.Currencies
	if len(codes) == 0 {
		codes = DefaultCurrencies
	}
	cfg := Config{
		ID: id, UmaDomain: seed.UmaDomain, WebhookEndpoint: seed.WebhookEndpoint,
		IsRegulatedFinancialInstitution: seed.Regulated,
		SkipVerificationPaperwork:       seed.SkipVerificationPaperwork,
		CreatedAt:                       t.Now, UpdatedAt: t.Now,
	}
	if cfg.UmaDomain == "" {
		cfg.UmaDomain = "sandbox.uma.money"
	}
	for _, code := range codes {
		if !money.Known(code) {
			return engine.Errorf(engine.CodeInvalidCurrency, "unknown platform currency %q", code)
		}
		cfg.SupportedCurrencies = append(cfg.SupportedCurrencies, defaultCurrencyConfig(code))
	}
	if err := platformSlot.Of(t.Handle).OpenAccounts(t, engine.PlatformOwner, codes); err != nil {
		return err
	}
	return engine.PutJSON(t, table, platformKey, cfg)
}

// Load returns the platform configuration inside t, decoded once per
// transaction (PLATFORM_NOT_FOUND when none is stored); a caller that
// changes it stores it back in the same transaction. The engine also
// remembers the last decoded record by its bytes, so an unchanged
// configuration is never decoded twice: every quote and every customer
// operation reads it, and none should pay a JSON decode for it.
// The copy returned is shallow: callers must not change nested members in
// place, since the cached record shares them (Service.UpdateConfig decodes
// its own copy).
func Load(t *engine.Txn) (*Config, error) {
	if cfg, ok := platState.Value(t); ok {
		return cfg, nil
	}
	raw, err := t.Get(table, platformKey)
	if err != nil {
		return nil, engine.NotFound(err, engine.CodePlatformNotFound, "platform", "config")
	}
	pc := &platformSlot.Of(t.Handle).cache
	pc.mu.Lock()
	if pc.cfg == nil || !bytes.Equal(pc.raw, raw) {
		var cfg Config
		if err := json.Unmarshal(raw, &cfg); err != nil {
			pc.mu.Unlock()
			return nil, err
		}
		pc.raw, pc.cfg = raw, &cfg
	}
	cfg := *pc.cfg
	pc.mu.Unlock()
	platState.SetValue(t, &cfg)
	return &cfg, nil
}
