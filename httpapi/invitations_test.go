package httpapi_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInvitations(t *testing.T) {
	s := stableServer(t)
	cust := s.customer()
	inviter := s.do("GET", "/customers/"+cust, nil).Body["umaAddress"].(string)
	require.NotEmpty(t, inviter)

	requireError(t, s.do("POST", "/invitations", map[string]any{"inviterUma": inviter}), 400, payments.CodeInvitationsNotConfigured)
	require.Equal(t, 200, s.do("PATCH", "/config", map[string]any{"webhookEndpoint": "https://platform.example/hooks"}).Status)

	requireError(t, s.do("POST", "/invitations", map[string]any{}), 400, payments.CodeInvalidUmaAddress, "inviterUma")
	requireError(t, s.do("POST", "/invitations", map[string]any{"inviterUma": "alice"}), 400, payments.CodeInvalidUmaAddress, "inviterUma")
	requireError(t, s.do("POST", "/invitations", map[string]any{"inviterUma": "$nobody@sandbox.uma.money"}), 400, payments.CodeInvalidUmaAddress)
	requireError(t, s.do("POST", "/invitations", map[string]any{"inviterUma": inviter, "amountToSend": 0, "expiresAt": "2020-01-01T00:00:00Z"}),
		400, payments.CodeInvalidInput, "amountToSend", "expiresAt")

	r := s.do("POST", "/invitations", map[string]any{"inviterUma": inviter, "firstName": "Jane", "amountToSend": 12550})
	require.Equal(t, 201, r.Status, "%s", r.Raw)
	code := r.Body["code"].(string)
	assert.Equal(t, "PENDING", r.Body["status"])
	assert.Equal(t, "https://uma.me/i/"+code, r.Body["url"])
	assert.Equal(t, "Jane", r.Body["firstName"])
	amt := r.Body["amountToSend"].(map[string]any)
	assert.EqualValues(t, 12550, amt["amount"])
	assert.NotEmpty(t, amt["currency"].(map[string]any)["code"])

	got := s.do("GET", "/invitations/"+code, nil)
	require.Equal(t, 200, got.Status)
	assert.Equal(t, inviter, got.Body["inviterUma"])
	requireError(t, s.do("GET", "/invitations/nope", nil), 404, payments.CodeInvitationNotFound)
	requireError(t, s.do("POST", "/invitations/nope/claim", map[string]any{"inviteeUma": "$bob@other.example"}), 404, payments.CodeInvitationNotFound)
	requireError(t, s.do("POST", "/invitations/nope/cancel", nil), 404, payments.CodeInvitationNotFound)

	t.Run("claim", func(t *testing.T) {
		requireError(t, s.do("POST", "/invitations/"+code+"/claim", map[string]any{"inviteeUma": "bob"}), 400, payments.CodeInvalidUmaAddress, "inviteeUma")
		requireError(t, s.do("POST", "/invitations/"+code+"/claim", map[string]any{"inviteeUma": inviter}), 400, payments.CodeInvalidUmaAddress)
		c := s.do("POST", "/invitations/"+code+"/claim", map[string]any{"inviteeUma": "$bob@other.example"})
		require.Equal(t, 200, c.Status, "%s", c.Raw)
		assert.Equal(t, "CLAIMED", c.Body["status"])
		assert.Equal(t, "$bob@other.example", c.Body["inviteeUma"])
		assert.NotEmpty(t, c.Body["claimedAt"])
		requireError(t, s.do("POST", "/invitations/"+code+"/claim", map[string]any{"inviteeUma": "$carol@other.example"}), 400, payments.CodeInvitationAlreadyClaimed)
		requireError(t, s.do("POST", "/invitations/"+code+"/cancel", nil), 400, payments.CodeInvitationAlreadyClaimed)

		_, err := s.eng.Webhooks.Flush(ctx)
		require.NoError(t, err)
		var claimed []payments.Event
		for _, ev := range s.events() {
			if ev.Type == payments.EventInvitationClaimed {
				claimed = append(claimed, ev)
			}
		}
		require.Len(t, claimed, 1, "one INVITATION.CLAIMED webhook")
		var data map[string]any
		require.NoError(t, json.Unmarshal(claimed[0].Data, &data))
		assert.Equal(t, code, data["code"])
		assert.Equal(t, "CLAIMED", data["status"])
		assert.Equal(t, "$bob@other.example", data["inviteeUma"])
	})

	t.Run("cancel", func(t *testing.T) {
		c := s.do("POST", "/invitations", map[string]any{"inviterUma": inviter}).Body["code"].(string)
		x := s.do("POST", "/invitations/"+c+"/cancel", nil)
		require.Equal(t, 200, x.Status, "%s", x.Raw)
		assert.Equal(t, "CANCELLED", x.Body["status"])
		requireError(t, s.do("POST", "/invitations/"+c+"/cancel", nil), 400, payments.CodeInvitationCancelled)
		requireError(t, s.do("POST", "/invitations/"+c+"/claim", map[string]any{"inviteeUma": "$bob@other.example"}), 400, payments.CodeInvitationCancelled)
		assert.Equal(t, "CANCELLED", s.do("GET", "/invitations/"+c, nil).Body["status"])
	})

	t.Run("expiry", func(t *testing.T) {
		exp := s.eng.Now().Add(time.Hour).Format(time.RFC3339)
		c := s.do("POST", "/invitations", map[string]any{"inviterUma": inviter, "expiresAt": exp})
		require.Equal(t, 201, c.Status, "%s", c.Raw)
		assert.Equal(t, exp, c.Body["expiresAt"])
		code := c.Body["code"].(string)
		s.clock.Advance(time.Hour)
		assert.Equal(t, "EXPIRED", s.do("GET", "/invitations/"+code, nil).Body["status"], "judged by its own deadline")
		requireError(t, s.do("POST", "/invitations/"+code+"/claim", map[string]any{"inviteeUma": "$bob@other.example"}), 400, payments.CodeInvalidInput)
		requireError(t, s.do("POST", "/invitations/"+code+"/cancel", nil), 400, payments.CodeInvalidInput)
	})
}

func TestEstimateWithdrawalFee(t *testing.T) {
	s := stableServer(t)
	cust := s.customer(set("currencies", []string{"USDC", "USD"}))
	accts := s.do("GET", "/customers/internal-accounts?customerId="+cust+"&currency=USDC", nil)
	require.Equal(t, 200, accts.Status, "%s", accts.Raw)
	usdc := accts.Body["data"].([]any)[0].(map[string]any)["id"].(string)
	const sol = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
	req := func(mut ...func(map[string]any)) map[string]any {
		b := map[string]any{"internalAccountId": usdc, "currency": "USDC", "cryptoNetwork": "SOLANA", "amount": 1_000_000, "destinationAddress": sol}
		for _, m := range mut {
			m(b)
		}
		return b
	}

	r := s.do("POST", "/crypto/estimate-withdrawal-fee", req())
	require.Equal(t, 200, r.Status, "%s", r.Raw)
	assert.EqualValues(t, 5000, r.Body["networkFee"])
	assert.Equal(t, "SOL", r.Body["networkFeeAsset"])

	// A quote of the same amount to a USDC wallet on Solana charges the
	// estimate's totalFee and delivers its netAmount.
	w := s.do("POST", "/customers/external-accounts", map[string]any{"customerId": cust, "currency": "USDC",
		"accountInfo": map[string]any{"accountType": "SOLANA_WALLET", "address": sol}})
	require.Equal(t, 201, w.Status, "%s", w.Raw)
	q := s.do("POST", "/quotes", quoteBody(usdc, w.Body["id"].(string), 1_000_000))
	require.Equal(t, 201, q.Status, "%s", q.Raw)
	assert.Equal(t, q.Body["feesIncluded"], r.Body["totalFee"])
	assert.Equal(t, q.Body["totalReceivingAmount"], r.Body["netAmount"])
	assert.Equal(t, q.Body["platformFeesIncluded"], r.Body["applicationFee"])

	b := s.do("POST", "/crypto/estimate-withdrawal-fee", req(set("cryptoNetwork", "BASE"), set("destinationAddress", "0x52908400098527886E0F7030069857D2E4169EE7")))
	require.Equal(t, 200, b.Status, "%s", b.Raw)
	assert.Equal(t, "ETH", b.Body["networkFeeAsset"])

	requireError(t, s.do("POST", "/crypto/estimate-withdrawal-fee", map[string]any{}), 400, payments.CodeInvalidInput,
		"internalAccountId", "currency", "cryptoNetwork", "amount", "destinationAddress")
	requireError(t, s.do("POST", "/crypto/estimate-withdrawal-fee", req(set("cryptoNetwork", "DOGE"))), 400, payments.CodeInvalidInput, "cryptoNetwork")
	requireError(t, s.do("POST", "/crypto/estimate-withdrawal-fee", req(set("cryptoNetwork", "TRON"), set("destinationAddress", "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8"))), 400, payments.CodeInvalidInput, "cryptoNetwork")
	requireError(t, s.do("POST", "/crypto/estimate-withdrawal-fee", req(set("destinationAddress", "not-an-address"))), 400, payments.CodeInvalidInput, "destinationAddress")
	requireError(t, s.do("POST", "/crypto/estimate-withdrawal-fee", req(set("internalAccountId", "InternalAccount:nope"))), 404, payments.CodeAccountNotFound)
	usd := s.do("GET", "/customers/internal-accounts?customerId="+cust+"&currency=USD", nil).Body["data"].([]any)[0].(map[string]any)["id"]
	requireError(t, s.do("POST", "/crypto/estimate-withdrawal-fee", req(set("internalAccountId", usd))), 400, payments.CodeInvalidInput, "currency")
}
