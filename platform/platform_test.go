package platform_test

import (
	"strings"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/storage/memstore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEngine_PlatformSeed(t *testing.T) {
	e := enginetest.NewEnv(t)
	cfg, err := e.Eng.Platform.Config(ctx)
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
	enginetest.RequireCode(t, err, payments.CodeInvalidCurrency)
}

func TestEngine_UpdatePlatformConfig(t *testing.T) {
	t.Run("reports every invalid field and changes nothing", func(t *testing.T) {
		e := enginetest.NewEnv(t)
		before, _ := e.Eng.Platform.Config(ctx)
		bad := "not a url"
		dom := "Not_A_Domain"
		_, err := e.Eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{
			WebhookEndpoint: &bad, UmaDomain: &dom,
			FeeConfigs:           []payments.FeeConfig{{FeeType: "OTHER", SourceCurrency: "EUR", VariableFeeBps: 20000, FixedFee: payments.FixedFee{Amount: -1, Currency: "USD"}}},
			EmbeddedWalletConfig: []byte(`{"otpLength": 2}`),
		})
		enginetest.RequireCode(t, err, payments.CodeInvalidInput, "webhookEndpoint", "umaDomain", "feeConfigs.0.feeType",
			"feeConfigs.0.sourceCurrency", "feeConfigs.0.variableFeeBps", "feeConfigs.0.fixedFee.amount",
			"feeConfigs.0.fixedFee.currency", "embeddedWalletConfig.otpLength")
		after, _ := e.Eng.Platform.Config(ctx)
		assert.Equal(t, before, after)
	})
	t.Run("merges nested objects and fee configs", func(t *testing.T) {
		e := enginetest.NewEnv(t)
		_, err := e.Eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{EmbeddedWalletConfig: []byte(`{"appName":"Acme","otpLength":6}`)})
		require.NoError(t, err)
		fee := payments.FeeConfig{FeeType: "CROSS_CURRENCY_TRANSACTION", SourceCurrency: "USD", VariableFeeBps: 30, FixedFee: payments.FixedFee{Amount: 100, Currency: "USD"}}
		cfg, err := e.Eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{
			EmbeddedWalletConfig: []byte(`{"otpLength":8}`), FeeConfigs: []payments.FeeConfig{fee},
		})
		require.NoError(t, err)
		assert.Equal(t, "Acme", cfg.EmbeddedWalletConfig.AppName)
		assert.Equal(t, 8, cfg.EmbeddedWalletConfig.OtpLength)
		require.Len(t, cfg.FeeConfigs, 1)
		fee.VariableFeeBps, fee.FixedFee.Amount = 0, 0
		cfg, err = e.Eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{FeeConfigs: []payments.FeeConfig{fee}})
		require.NoError(t, err)
		assert.Empty(t, cfg.FeeConfigs, "zero amounts deactivate the fee config")
	})
	t.Run("platform kind is settable only in the sandbox", func(t *testing.T) {
		yes := true
		prod := enginetest.NewEnv(t, func(c *payments.Config) { c.Sandbox = false })
		_, err := prod.Eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{IsRegulatedFinancialInstitution: &yes})
		enginetest.RequireCode(t, err, payments.CodeInvalidInput, "isRegulatedFinancialInstitution")
		sb := enginetest.NewEnv(t)
		cfg, err := sb.Eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{IsRegulatedFinancialInstitution: &yes, SkipVerificationPaperwork: &yes})
		require.NoError(t, err)
		assert.True(t, cfg.IsRegulatedFinancialInstitution)
		assert.True(t, cfg.SkipVerificationPaperwork)
	})
}
