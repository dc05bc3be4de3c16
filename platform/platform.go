package platform

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/money"
	"github.com/paygrid/payments/validate"
)

// table holds the platform configuration: one record, at platformKey. It
// is exported for the sandbox's state import, which requires it.
const table = "platform"

// platformKey is the key of the one configuration record in Table.
const platformKey = "config"

// Config is the platform's configuration (the reference's
// PlatformConfig plus skipVerificationPaperwork, which steers sandbox KYC).
// Read it with Service.Config, or with Load inside a transaction; change it
// with Service.UpdateConfig.
type Config struct {
	ID string `json:"id"`
	// UmaDomain is the domain of generated UMA addresses
	// ($<platformCustomerId>@<UmaDomain>).
	UmaDomain         string `json:"umaDomain,omitempty"`
	ProxyUmaSubdomain string `json:"proxyUmaSubdomain,omitempty"`
	// WebhookEndpoint is where a Notifier that sends webhooks
	// (engine.WebhookSender) delivers events; it is read at each delivery,
	// so a change applies from the next event on.
	WebhookEndpoint string `json:"webhookEndpoint,omitempty"`
	// SupportedCurrencies are the currencies customers get internal
	// accounts in (unless they name their own) and quotes may price;
	// another currency is INVALID_CURRENCY.
	SupportedCurrencies []CurrencyConfig `json:"supportedCurrencies"`
	// IsRegulatedFinancialInstitution: the platform verifies its own
	// customers (it may set their status at creation) and its customers
	// need not accept the provider's end-user terms.
	IsRegulatedFinancialInstitution bool `json:"isRegulatedFinancialInstitution"`
	// SkipVerificationPaperwork lets the sandbox KYC provider decide a
	// customer at creation from its name's suffix, without the documents an
	// unregulated platform's customers otherwise submit.
	SkipVerificationPaperwork bool                       `json:"skipVerificationPaperwork"`
	EmbeddedWalletConfig      *EmbeddedWalletConfig      `json:"embeddedWalletConfig,omitempty"`
	CardTokenization2faConfig *CardTokenization2FAConfig `json:"cardTokenization2faConfig,omitempty"`
	FeeConfigs                []FeeConfig                `json:"feeConfigs,omitempty"`
	CreatedAt                 time.Time                  `json:"createdAt"`
	UpdatedAt                 time.Time                  `json:"updatedAt"`
}

// CurrencyConfig is one supported currency with its per-transaction bounds
// (maxAmount is the single-transaction maximum behind
// TRANSACTION_SIZE_LIMIT_EXCEEDED).
type CurrencyConfig struct {
	CurrencyCode string `json:"currencyCode"`
	// MinAmount and MaxAmount bound one transaction, in minor units.
	MinAmount                                 int64               `json:"minAmount"`
	MaxAmount                                 int64               `json:"maxAmount"`
	RequiredCounterpartyFields                []CounterpartyField `json:"requiredCounterpartyFields"`
	ProviderRequiredCustomerFields            []string            `json:"providerRequiredCustomerFields,omitempty"`
	ProviderRequiredCounterpartyCustomerField []string            `json:"providerRequiredCounterpartyCustomerFields,omitempty"`
	EnabledTransactionTypes                   []string            `json:"enabledTransactionTypes"`
}

// CounterpartyField names customer information the platform wants about
// counterparties.
type CounterpartyField struct {
	Name      string `json:"name"`
	Mandatory bool   `json:"mandatory"`
}

// FeeConfig is a platform fee on transactions from SourceCurrency.
type FeeConfig struct {
	FeeType        string   `json:"feeType"`
	SourceCurrency string   `json:"sourceCurrency"`
	VariableFeeBps int      `json:"variableFeeBps"`
	FixedFee       FixedFee `json:"fixedFee"`
}

// FixedFee is an amount in minor units of Currency.
type FixedFee struct {
	Amount   int64  `json:"amount"`
	Currency string `json:"currency"`
}

// EmbeddedWalletConfig brands embedded-wallet OTP messages.
type EmbeddedWalletConfig struct {
	AppName                 string `json:"appName,omitempty"`
	OtpLength               int    `json:"otpLength,omitempty"`
	Alphanumeric            bool   `json:"alphanumeric,omitempty"`
	ExpirationSeconds       int    `json:"expirationSeconds,omitempty"`
	SendFromEmailAddress    string `json:"sendFromEmailAddress,omitempty"`
	SendFromEmailSenderName string `json:"sendFromEmailSenderName,omitempty"`
	ReplyToEmailAddress     string `json:"replyToEmailAddress,omitempty"`
	LogoURL                 string `json:"logoUrl,omitempty"`
}

// CardTokenization2FAConfig brands card-tokenization authentication messages.
type CardTokenization2FAConfig struct {
	DisplayName string `json:"displayName,omitempty"`
	LogoURL     string `json:"logoUrl,omitempty"`
	Email       *struct {
		FromAddress    string `json:"fromAddress,omitempty"`
		FromName       string `json:"fromName,omitempty"`
		ReplyToAddress string `json:"replyToAddress,omitempty"`
		Subject        string `json:"subject,omitempty"`
		BodyText       string `json:"bodyText,omitempty"`
	} `json:"email,omitempty"`
	SMS *struct {
		TemplateSid string `json:"templateSid,omitempty"`
		BodyText    string `json:"bodyText,omitempty"`
	} `json:"sms,omitempty"`
}

// Seed is the configuration a new platform starts with
// (payments.Config.Platform). It is written once, into an empty store; the
// zero value is an unregulated platform on sandbox.uma.money supporting
// DefaultCurrencies, with no webhook endpoint.
type Seed struct {
	// Regulated makes the platform a regulated financial institution.
	Regulated bool
	// SkipVerificationPaperwork lets the sandbox suffix decide KYC at creation
	// on an unregulated platform, without documents.
	SkipVerificationPaperwork bool
	// UmaDomain is the domain of generated UMA addresses. Empty: "sandbox.uma.money".
	UmaDomain string
	// WebhookEndpoint receives events. Empty: none.
	WebhookEndpoint string
	// Currencies the platform supports. Empty: USD, EUR, GBP, MXN, BRL, INR,
	// CAD, PHP, BTC and USDC.
	Currencies []string
}

// DefaultCurrencies are the currencies of a platform seeded without a list.
var DefaultCurrencies = []string{"USD", "EUR", "GBP", "MXN", "BRL", "INR", "CAD", "PHP", "BTC", "USDC"}

// defaultCurrencyConfig bounds a currency from one minor unit to a million
// major units (ten for BTC).
func defaultCurrencyConfig(code string) CurrencyConfig {
	c, _ := money.Lookup(code)
	maxMajor := int64(1_000_000)
	if code == "BTC" {
		maxMajor = 10
	}
	mx := maxMajor
	for range c.Decimals {
		mx *= 10
	}
	return CurrencyConfig{
		CurrencyCode: code, MinAmount: 1, MaxAmount: mx,
		RequiredCounterpartyFields: []CounterpartyField{},
		EnabledTransactionTypes:    []string{"INCOMING", "OUTGOING"},
	}
}

// Seed writes the platform configuration of seed on an empty store
// (payments.New calls it once the areas are registered, so that opening
// the platform's accounts finds the accounts area's tables). A store that
// holds a configuration keeps it. An unknown currency in seed is
// INVALID_CURRENCY. Seed is not idempotent by key: it needs none.
func (pl Service) Seed(ctx context.Context, seed Seed) error {
	_, err := engine.Run(ctx, pl.e, seedOp, seed)
	return err
}

// seedOp is Service.Seed's operation.
var seedOp = engine.Op[Seed, struct{}, struct{}]{Area: "platform", Name: "Seed", Access: engine.Unkeyed,
	Decide: func(t *engine.Txn, seed *Seed, _ *struct{}) (struct{}, error) { return struct{}{}, WriteSeed(t, *seed) }}

// Config returns the platform configuration: PLATFORM_NOT_FOUND only on a
// store that was never seeded (payments.New always seeds).
func (pl Service) Config(ctx context.Context) (*Config, error) {
	return engine.Run(ctx, pl.e, configOp, struct{}{})
}

// configOp is Service.Config's operation.
var configOp = engine.Op[struct{}, *Config, struct{}]{Area: "platform", Name: "Config", Access: engine.Read,
	Decide: func(t *engine.Txn, _ *struct{}, _ *struct{}) (*Config, error) {
		var cfg Config
		err := engine.GetJSON(t, table, platformKey, &cfg)
		return &cfg, engine.NotFound(err, engine.CodePlatformNotFound, "platform", "config")
	}}

// platState keys the platform configuration a transaction decoded.
var platState engine.Local[*Config]

// platformCache is the engine's last decoded platform configuration.
type platformCache struct {
	mu  sync.Mutex
	raw []byte
	cfg *Config
}

// ConfigUpdate is a PATCH of the platform configuration (the reference's
// PlatformConfigUpdateRequest): nil members
// are left unchanged; EmbeddedWalletConfig and CardTokenization2faConfig are
// merged member by member (JSON merge patch); FeeConfigs are merged by
// (feeType, sourceCurrency), and both amounts 0 removes a fee config.
// IsRegulatedFinancialInstitution is accepted on sandbox engines only.
type ConfigUpdate struct {
	UmaDomain                       *string           `json:"umaDomain"`
	WebhookEndpoint                 *string           `json:"webhookEndpoint"`
	SupportedCurrencies             *[]CurrencyConfig `json:"supportedCurrencies"`
	EmbeddedWalletConfig            json.RawMessage   `json:"embeddedWalletConfig"`
	CardTokenization2faConfig       json.RawMessage   `json:"cardTokenization2faConfig"`
	FeeConfigs                      []FeeConfig       `json:"feeConfigs"`
	IsRegulatedFinancialInstitution *bool             `json:"isRegulatedFinancialInstitution"`
	SkipVerificationPaperwork       *bool             `json:"skipVerificationPaperwork"`
}

// reDomain is a lower-case DNS name of at least two labels: the host part
// of generated UMA addresses ($name@domain).
var reDomain = regexp.MustCompile(`^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$`)

// UpdateConfig applies u and returns the new configuration, in one
// transaction run by engine.Once (idempotent by key). Every invalid member
// is reported at once in one INVALID_INPUT and nothing changes;
// PLATFORM_NOT_FOUND on a store never seeded. Adding a currency opens the
// platform's internal account in it; a new, non-empty webhookEndpoint gets
// a TEST event. Currencies removed from the list keep their accounts and
// balances: nothing is closed by a configuration change.
func (pl Service) UpdateConfig(ctx context.Context, u ConfigUpdate) (*Config, error) {
	return engine.Run(ctx, pl.e, updateConfig, u)
}

// updateConfig is Service.UpdateConfig's operation: the update is checked
// against the stored configuration, so its fields are validated in
// Decide, every problem at once.
var updateConfig = engine.Op[ConfigUpdate, *Config, struct{}]{Area: "platform", Name: "UpdateConfig",
	Decide: func(t *engine.Txn, up *ConfigUpdate, _ *struct{}) (*Config, error) {
		u, e := *up, t.Handle
		var cfg *Config
		if err := engine.GetJSON(t, table, platformKey, &cfg); err != nil {
			return nil, engine.NotFound(err, engine.CodePlatformNotFound, "platform", "config")
		}
		// Later reads of this transaction (Load) see the configuration
		// being changed, not the stored one.
		platState.SetValue(t, cfg)
		var fe validate.Errors
		if u.UmaDomain != nil {
			fe.Match("umaDomain", *u.UmaDomain, reDomain, "a lower-case domain name such as example.com")
			fe.Required("umaDomain", *u.UmaDomain)
			cfg.UmaDomain = *u.UmaDomain
		}
		newEndpoint := false
		if u.WebhookEndpoint != nil {
			if *u.WebhookEndpoint != "" {
				fe.URL("webhookEndpoint", *u.WebhookEndpoint)
			}
			newEndpoint = *u.WebhookEndpoint != "" && *u.WebhookEndpoint != cfg.WebhookEndpoint
			cfg.WebhookEndpoint = *u.WebhookEndpoint
		}
		if u.SupportedCurrencies != nil {
			checkCurrencies(&fe, *u.SupportedCurrencies)
			cfg.SupportedCurrencies = *u.SupportedCurrencies
			if len(fe) == 0 {
				codes := make([]string, len(cfg.SupportedCurrencies))
				for i, c := range cfg.SupportedCurrencies {
					codes[i] = c.CurrencyCode
				}
				if err := platformSlot.Of(t.Handle).OpenAccounts(t, engine.PlatformOwner, codes); err != nil {
					return nil, err
				}
			}
		}
		if u.EmbeddedWalletConfig != nil {
			if cfg.EmbeddedWalletConfig == nil {
				cfg.EmbeddedWalletConfig = &EmbeddedWalletConfig{}
			}
			if err := mergePatch(cfg.EmbeddedWalletConfig, u.EmbeddedWalletConfig); err != nil {
				fe.Add("embeddedWalletConfig", nil, "embeddedWalletConfig must be an object of the documented fields")
			} else {
				checkWallet(&fe, cfg.EmbeddedWalletConfig)
			}
		}
		if u.CardTokenization2faConfig != nil {
			if cfg.CardTokenization2faConfig == nil {
				cfg.CardTokenization2faConfig = &CardTokenization2FAConfig{}
			}
			if err := mergePatch(cfg.CardTokenization2faConfig, u.CardTokenization2faConfig); err != nil {
				fe.Add("cardTokenization2faConfig", nil, "cardTokenization2faConfig must be an object of the documented fields")
			} else if l := cfg.CardTokenization2faConfig.LogoURL; l != "" && !strings.HasPrefix(l, "https://") {
				fe.Add("cardTokenization2faConfig.logoUrl", &validate.Constraint{Pattern: "^https://"}, "logoUrl must be an https URL")
			}
		}
		for i, fc := range u.FeeConfigs {
			if !checkFee(&fe, validate.Index("feeConfigs", i), fc) {
				continue
			}
			cfg.FeeConfigs = mergeFee(cfg.FeeConfigs, fc)
		}
		if u.SkipVerificationPaperwork != nil {
			cfg.SkipVerificationPaperwork = *u.SkipVerificationPaperwork
		}
		if u.IsRegulatedFinancialInstitution != nil {
			if !e.Config.Sandbox && *u.IsRegulatedFinancialInstitution != cfg.IsRegulatedFinancialInstitution {
				fe.Add("isRegulatedFinancialInstitution", nil, "isRegulatedFinancialInstitution is set by the operator and can be changed only in the sandbox")
			}
			cfg.IsRegulatedFinancialInstitution = *u.IsRegulatedFinancialInstitution
		}
		if err := engine.Invalid(fe.Err()); err != nil {
			return nil, err
		}
		cfg.UpdatedAt = t.Now
		if newEndpoint { // the reference sends one TEST event to a new endpoint
			if err := t.Emit(engine.EventTest, struct{}{}); err != nil {
				return nil, err
			}
		}
		if err := engine.PutJSON(t, table, platformKey, cfg); err != nil {
			return nil, err
		}
		return cfg, nil
	}}

// checkCurrencies validates a full supportedCurrencies list: known and
// distinct codes, 0 <= minAmount <= maxAmount, the transaction types and
// the counterparty fields of the reference's enums.
func checkCurrencies(fe *validate.Errors, list []CurrencyConfig) {
	seen := map[string]bool{}
	for i, c := range list {
		p := validate.Index("supportedCurrencies", i)
		if !money.Known(c.CurrencyCode) {
			fe.Add(p+".currencyCode", nil, "currencyCode %q is not a supported currency", c.CurrencyCode)
		} else if seen[c.CurrencyCode] {
			fe.Add(p+".currencyCode", nil, "currency %s is listed twice", c.CurrencyCode)
		}
		seen[c.CurrencyCode] = true
		if c.MinAmount < 0 {
			fe.Add(p+".minAmount", nil, "minAmount must not be negative")
		}
		if c.MaxAmount < c.MinAmount {
			fe.Add(p+".maxAmount", nil, "maxAmount must be at least minAmount")
		}
		if c.EnabledTransactionTypes == nil {
			fe.Missing(p + ".enabledTransactionTypes")
		}
		for j, tt := range c.EnabledTransactionTypes {
			fe.Enum(validate.Index(p+".enabledTransactionTypes", j), tt, "INCOMING", "OUTGOING")
		}
		for j, f := range c.RequiredCounterpartyFields {
			fe.Enum(validate.Index(p+".requiredCounterpartyFields", j)+".name", f.Name, CustomerInfoFields...)
		}
	}
}

// CustomerInfoFields are the reference's CustomerInfoFieldName values: the
// names a CurrencyConfig's requiredCounterpartyFields may use.
var CustomerInfoFields = []string{"FULL_NAME", "BIRTH_DATE", "NATIONALITY", "PHONE_NUMBER", "EMAIL", "POSTAL_ADDRESS",
	"TAX_ID", "REGISTRATION_NUMBER", "USER_TYPE", "COUNTRY_OF_RESIDENCE", "ACCOUNT_IDENTIFIER", "FI_LEGAL_ENTITY_NAME",
	"FI_ADDRESS", "PURPOSE_OF_PAYMENT", "ULTIMATE_INSTITUTION_COUNTRY", "IDENTIFIER", "BUSINESS_TYPE",
	"COMPANY_LEGAL_NAME", "ID_TYPE", "ID_NUMBER"}

// checkWallet validates embedded-wallet branding after the merge: the
// bounds are the reference's (OTP of 4 to 12 characters, expiry up to a
// day).
func checkWallet(fe *validate.Errors, w *EmbeddedWalletConfig) {
	fe.MaxLen("embeddedWalletConfig.appName", w.AppName, 255)
	if w.OtpLength != 0 && (w.OtpLength < 4 || w.OtpLength > 12) {
		fe.Add("embeddedWalletConfig.otpLength", nil, "otpLength must be between 4 and 12")
	}
	if w.ExpirationSeconds != 0 && (w.ExpirationSeconds < 1 || w.ExpirationSeconds > 86400) {
		fe.Add("embeddedWalletConfig.expirationSeconds", nil, "expirationSeconds must be between 1 and 86400")
	}
	fe.Email("embeddedWalletConfig.sendFromEmailAddress", w.SendFromEmailAddress)
	fe.Email("embeddedWalletConfig.replyToEmailAddress", w.ReplyToEmailAddress)
}

// checkFee validates one fee config and reports whether it is valid; only
// CROSS_CURRENCY_TRANSACTION fees on USD sources exist, and the fixed fee is
// in the source currency, so pricing never converts a fee.
func checkFee(fe *validate.Errors, p string, fc FeeConfig) bool {
	n := len(*fe)
	fe.Enum(p+".feeType", fc.FeeType, "CROSS_CURRENCY_TRANSACTION")
	fe.Required(p+".feeType", fc.FeeType)
	if fc.SourceCurrency != "USD" {
		fe.Add(p+".sourceCurrency", &validate.Constraint{Enum: []string{"USD"}}, "only USD fee configs are supported")
	}
	if fc.VariableFeeBps < 0 || fc.VariableFeeBps > 10000 {
		fe.Add(p+".variableFeeBps", nil, "variableFeeBps must be between 0 and 10000")
	}
	if fc.FixedFee.Amount < 0 {
		fe.Add(p+".fixedFee.amount", nil, "fixedFee.amount must not be negative")
	}
	if fc.FixedFee.Currency != fc.SourceCurrency {
		fe.Add(p+".fixedFee.currency", nil, "fixedFee.currency must equal sourceCurrency")
	}
	return len(*fe) == n
}

// mergeFee replaces the fee config of fc's (feeType, sourceCurrency) with
// fc, or removes it when both of fc's amounts are 0. It returns a new
// slice: list may be shared with the cached configuration.
func mergeFee(list []FeeConfig, fc FeeConfig) []FeeConfig {
	out := list[:0:0]
	for _, f := range list {
		if f.FeeType != fc.FeeType || f.SourceCurrency != fc.SourceCurrency {
			out = append(out, f)
		}
	}
	if fc.VariableFeeBps != 0 || fc.FixedFee.Amount != 0 {
		out = append(out, fc)
	}
	return out
}

// mergePatch applies a JSON merge patch (RFC 7386) to the JSON form of dst.
func mergePatch(dst any, patch json.RawMessage) error {
	cur, err := json.Marshal(dst)
	if err != nil {
		return err
	}
	var base, p map[string]any
	if err := json.Unmarshal(cur, &base); err != nil {
		return err
	}
	if err := json.Unmarshal(patch, &p); err != nil || p == nil {
		return errors.New("patch must be a JSON object")
	}
	merged, err := json.Marshal(mergeMaps(base, p))
	if err != nil {
		return err
	}
	dec := json.NewDecoder(strings.NewReader(string(merged)))
	dec.DisallowUnknownFields()
	return dec.Decode(dst)
}

// mergeMaps is RFC 7386 on decoded objects: null removes a member, an
// object merges recursively, anything else replaces.
func mergeMaps(base, patch map[string]any) map[string]any {
	if base == nil {
		base = map[string]any{}
	}
	for k, v := range patch {
		switch pv := v.(type) {
		case nil:
			delete(base, k)
		case map[string]any:
			bv, _ := base[k].(map[string]any)
			base[k] = mergeMaps(bv, pv)
		default:
			base[k] = v
		}
	}
	return base
}

// Service holds the platform's configuration and its API tokens: the
// facade's eng.Platform (payments.Platform). It is a value over the
// engine's handle, safe for concurrent use; on a handle with an
// idempotency key its write operations run at most once per key.
type Service struct{ e *engine.Handle }

// NewService returns the Platform group of h (payments.New binds it to
// every handle, WithIdempotency's included).
func NewService(h *engine.Handle) Service { return Service{h} }

// CurrencyCodes lists the platform's supported currency codes, in the
// configuration's order.
func (c *Config) CurrencyCodes() []string {
	out := make([]string, len(c.SupportedCurrencies))
	for i, sc := range c.SupportedCurrencies {
		out[i] = sc.CurrencyCode
	}
	return out
}
