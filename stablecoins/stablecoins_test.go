package stablecoins_test

import (
	"errors"
	"testing"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/stablecoins"
	"github.com/paygrid/payments/validate"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSelect(t *testing.T) {
	a := stablecoins.Link{ID: "a", Status: stablecoins.LinkActive}
	b := stablecoins.Link{ID: "b", Status: stablecoins.LinkActive}
	inv := stablecoins.Link{ID: "i", Status: stablecoins.LinkInvalid}
	rev := stablecoins.Link{ID: "r", Status: stablecoins.LinkRevoked}
	for _, tc := range []struct {
		name  string
		links []stablecoins.Link
		named string
		want  string
		err   error
	}{
		{"the one active link", []stablecoins.Link{a, inv, rev}, "", "a", nil},
		{"several active", []stablecoins.Link{a, b}, "", "", stablecoins.ErrSelectionRequired},
		{"several, one named", []stablecoins.Link{a, b}, "b", "b", nil},
		{"named invalid", []stablecoins.Link{a, inv}, "i", "i", stablecoins.ErrLinkInvalid},
		{"named revoked", []stablecoins.Link{a, rev}, "r", "r", stablecoins.ErrLinkRevoked},
		{"named unknown", []stablecoins.Link{a}, "x", "", stablecoins.ErrNoLink},
		{"none active: invalid first", []stablecoins.Link{rev, inv}, "", "i", stablecoins.ErrLinkInvalid},
		{"none active: revoked", []stablecoins.Link{rev}, "", "r", stablecoins.ErrLinkRevoked},
		{"no links", nil, "", "", stablecoins.ErrNoLink},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := stablecoins.Select(tc.links, tc.named)
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err)
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tc.want, l.ID)
		})
	}
}

func TestEnablement(t *testing.T) {
	next, err := stablecoins.RequestEnablement(stablecoins.OpsNotEnabled)
	require.NoError(t, err)
	assert.Equal(t, stablecoins.OpsPendingApproval, next)
	next, err = stablecoins.RequestEnablement(stablecoins.OpsPendingApproval)
	require.NoError(t, err)
	assert.Equal(t, stablecoins.OpsPendingApproval, next)
	for _, s := range []stablecoins.OpsStatus{stablecoins.OpsEnabling, stablecoins.OpsEnabled, stablecoins.OpsDisabled} {
		_, err := stablecoins.RequestEnablement(s)
		assert.ErrorIs(t, err, stablecoins.ErrNotRequestable, "%s", s)
	}
	assert.NoError(t, stablecoins.OperatorSet(stablecoins.OpsPendingApproval, stablecoins.OpsEnabling))
	assert.NoError(t, stablecoins.OperatorSet(stablecoins.OpsEnabling, stablecoins.OpsEnabled))
	assert.NoError(t, stablecoins.OperatorSet(stablecoins.OpsEnabled, stablecoins.OpsDisabled))
	assert.NoError(t, stablecoins.OperatorSet(stablecoins.OpsDisabled, stablecoins.OpsEnabled))
	assert.ErrorIs(t, stablecoins.OperatorSet(stablecoins.OpsNotEnabled, stablecoins.OpsEnabled), stablecoins.ErrTransition)
	assert.ErrorIs(t, stablecoins.OperatorSet(stablecoins.OpsEnabled, stablecoins.OpsPendingApproval), stablecoins.ErrTransition)
}

func TestAmount(t *testing.T) {
	for _, tc := range []struct {
		in       string
		decimals int
		units    int64
		cents    int64
		err      error
		field    bool
	}{
		{"1250000", 6, 1_250_000, 125, nil, false},
		{"10000", 6, 10_000, 1, nil, false},
		{"10001", 6, 0, 0, stablecoins.ErrNotRepresentable, false},
		{"7", 2, 7, 7, nil, false},
		{"7", 0, 7, 700, nil, false},
		{"1", 19, 0, 0, stablecoins.ErrNotRepresentable, false},
		{"", 6, 0, 0, nil, true},
		{"0", 6, 0, 0, nil, true},
		{"-5", 6, 0, 0, nil, true},
		{"1.5", 6, 0, 0, nil, true},
		{"99999999999999999999", 6, 0, 0, nil, true},
		{"9223372036854775807", 0, 0, 0, nil, true},
	} {
		units, cents, err := stablecoins.Amount("amount", tc.in, tc.decimals)
		var fe validate.Errors
		switch {
		case tc.field:
			require.True(t, errors.As(err, &fe), "%q: %v", tc.in, err)
			assert.True(t, fe.Has("amount"))
		case tc.err != nil:
			assert.ErrorIs(t, err, tc.err, "%q", tc.in)
		default:
			require.NoError(t, err, "%q", tc.in)
			assert.Equal(t, tc.units, units)
			assert.Equal(t, tc.cents, cents)
		}
	}
}

func TestChecks(t *testing.T) {
	coin := &stablecoins.Stablecoin{Symbol: "ACME", IssuanceStatus: stablecoins.IssuanceProvisioned, ServiceOperationsStatus: stablecoins.OpsNotEnabled}
	wire := &stablecoins.MintRequest{FundingSource: stablecoins.Source{Type: stablecoins.SourceWire}, Destination: stablecoins.Destination{AccountID: "ExternalAccount:1"}}
	assert.NoError(t, stablecoins.CheckMint(coin, wire))
	internal := *wire
	internal.Destination.AccountID = "InternalAccount:1"
	assert.ErrorIs(t, stablecoins.CheckMint(coin, &internal), stablecoins.ErrOpsNotEnabled)
	burn := &stablecoins.BurnRequest{Source: stablecoins.Source{Type: stablecoins.SourceServiceInternal}}
	assert.ErrorIs(t, stablecoins.CheckBurn(coin, burn), stablecoins.ErrOpsNotEnabled)
	coin.ServiceOperationsStatus = stablecoins.OpsEnabled
	assert.ErrorIs(t, stablecoins.CheckMint(coin, &internal), stablecoins.ErrOpNotSupported)
	assert.ErrorIs(t, stablecoins.CheckBurn(coin, burn), stablecoins.ErrBurnSourceNotSupported)
	coin.IssuanceStatus = stablecoins.IssuancePendingReview
	assert.ErrorIs(t, stablecoins.CheckMint(coin, wire), stablecoins.ErrNotProvisioned)
	assert.ErrorIs(t, stablecoins.CheckBurn(coin, burn), stablecoins.ErrNotProvisioned)

	usd := []string{"ACH", "WIRE", "RTP", "FEDNOW"}
	assert.NoError(t, stablecoins.CheckExternal(stablecoins.RoleMintDestination, "SPARK_WALLET", "BTC", "USD", "", nil))
	assert.ErrorIs(t, stablecoins.CheckExternal(stablecoins.RoleMintDestination, "USD_ACCOUNT", "USD", "USD", "", usd), stablecoins.ErrExternalNotSupported)
	assert.NoError(t, stablecoins.CheckExternal(stablecoins.RoleBurnDestination, "USD_ACCOUNT", "USD", "USD", "RTP_CREDIT", usd))
	assert.ErrorIs(t, stablecoins.CheckExternal(stablecoins.RoleBurnDestination, "USD_ACCOUNT", "USD", "USD", "RTP_CREDIT", []string{"ACH"}), stablecoins.ErrExternalNotSupported)
	assert.ErrorIs(t, stablecoins.CheckExternal(stablecoins.RoleMintFunding, "EUR_ACCOUNT", "EUR", "USD", "", []string{"SEPA"}), stablecoins.ErrExternalNotSupported)
}

func TestLifecycleAndPostings(t *testing.T) {
	assert.True(t, stablecoins.CanMove(stablecoins.OpPendingFunding, stablecoins.OpExpired))
	assert.False(t, stablecoins.CanMove(stablecoins.OpCreated, stablecoins.OpExpired))
	assert.False(t, stablecoins.CanMove(stablecoins.OpCompleted, stablecoins.OpFailed))
	for _, s := range []stablecoins.OpStatus{stablecoins.OpCompleted, stablecoins.OpFailed, stablecoins.OpExpired} {
		assert.True(t, stablecoins.Terminal(s))
	}
	for _, p := range [][]accounts.Posting{
		stablecoins.MintPostings("c", "WIRE", "USD", 100),
		stablecoins.BurnHoldPostings("c", "USD", 100),
		stablecoins.BurnPayoutPostings("c", "WIRE", "USD", 100),
		stablecoins.BurnReleasePostings("c", "USD", 100),
	} {
		assert.NoError(t, accounts.CheckBalanced(p))
	}
	// A mint then a burn leave the reserve where it started.
	sum := map[string]int64{}
	for _, ps := range [][]accounts.Posting{stablecoins.MintPostings("c", "WIRE", "USD", 100), stablecoins.BurnHoldPostings("c", "USD", 100),
		stablecoins.BurnPayoutPostings("c", "WIRE", "USD", 100)} {
		for _, p := range ps {
			sum[p.Account] += p.Amount
		}
	}
	assert.Zero(t, sum[stablecoins.Reserve("c")])
	assert.Zero(t, sum[accounts.Held(stablecoins.Reserve("c"))])
}

func TestValidate(t *testing.T) {
	var fe validate.Errors
	err := (&stablecoins.LinkRequest{}).Validate()
	require.True(t, errors.As(err, &fe))
	assert.Len(t, fe, 3)
	err = (&stablecoins.BurnRequest{Amount: "5", Source: stablecoins.Source{Type: "EXTERNAL_ACCOUNT"},
		Destination: stablecoins.BurnDestination{Type: "EXTERNAL_ACCOUNT", ExternalAccountID: "ExternalAccount:1", Rail: "WIRE"}}).Validate()
	assert.NoError(t, err)
}
