package payments_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/agents"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// eventArgs are the functions that emit an event and the position of the
// event type among their arguments.
var eventArgs = map[string]int{"Emit": 0, "EmitEncoded": 0, "EmitAppended": 0, "SaveTransaction": 2, "announceTx": 2}

// TestEvents_EmittedAsConstants keeps the event vocabulary typed: every
// event the kernel and the areas emit names an EventType constant (or a
// variable holding one; "" where a function takes "" for none), never a
// string literal or a type built from strings, so the constants the root
// re-exports are every type a receiver can get. It reads the non-test Go
// files of the kernel and the areas.
func TestEvents_EmittedAsConstants(t *testing.T) {
	fset := token.NewFileSet()
	calls := 0
	for dir := range below {
		files, err := filepath.Glob(filepath.Join(filepath.FromSlash(dir), "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				var name string
				switch fn := call.Fun.(type) {
				case *ast.SelectorExpr:
					name = fn.Sel.Name
				case *ast.Ident:
					name = fn.Name
				}
				i, ok := eventArgs[name]
				if !ok || len(call.Args) <= i {
					return true
				}
				calls++
				switch arg := call.Args[i].(type) {
				case *ast.Ident, *ast.SelectorExpr:
				case *ast.BasicLit:
					if arg.Value != `""` { // "" emits nothing
						t.Errorf("%s: %s emits %s; name an EventType constant", fset.Position(arg.Pos()), name, arg.Value)
					}
				default:
					t.Errorf("%s: %s emits %s; name an EventType constant", fset.Position(arg.Pos()), name, types.ExprString(arg))
				}
				return true
			})
		}
	}
	if calls < 30 {
		t.Fatalf("found only %d emits", calls)
	}
}

// TestEventDecoders_RealEvents runs payments, cards, verification, agents,
// invitations and a bulk import on one engine, then decodes every event it
// emitted with the typed decoder of its type: each names the record it
// announces, and each refuses an event of another type.
func TestEventDecoders_RealEvents(t *testing.T) {
	e := enginetest.MoneyEnv(t, func(c *payments.Config) {
		c.CardIssuer = sandbox.Issuer{Now: c.Now}
		c.Platform.SkipVerificationPaperwork = true
		c.Platform.WebhookEndpoint = "https://platform.example/hooks" // invitations need one
	})
	eng := e.Eng
	acct := e.USDAccount(t, "Eve Holder")
	ia, err := eng.Accounts.Internal(ctx, acct)
	require.NoError(t, err)
	holder := ia.CustomerID
	_, err = eng.Sandbox.Fund(ctx, acct, 100_000)
	require.NoError(t, err)
	ext, err := eng.Accounts.CreateExternal(ctx, payments.ExternalAccountInput{CustomerID: holder, Currency: "USD",
		AccountInfo: payments.USBankAccount{AccountNumber: "1234567890", RoutingNumber: "021000021",
			Beneficiary: &payments.Beneficiary{Type: payments.BeneficiaryIndividual, FullName: "Eve Holder"}}.AccountInfo()}, payments.CustomerScope)
	require.NoError(t, err)
	q, err := eng.Quotes.Create(ctx, payments.QuoteRequest{Source: payments.QuoteSource{SourceType: payments.SourceAccount, AccountID: acct},
		Destination:        payments.QuoteDestination{DestinationType: payments.DestinationAccount, AccountID: ext.ID},
		LockedCurrencySide: payments.LockedSending, LockedCurrencyAmount: 1_000, ImmediatelyExecute: true})
	require.NoError(t, err)
	_, err = eng.Sandbox.Receive(ctx, payments.ReceiveRequest{CustomerID: holder, SenderUmaAddress: "$success.usd@sandbox.uma.money",
		ReceivingCurrencyCode: "USD", ReceivingCurrencyAmount: 500})
	require.NoError(t, err)

	card, err := eng.Cards.Create(ctx, payments.CreateCardRequest{CardholderID: holder, Form: "VIRTUAL", FundingSources: []string{acct}})
	require.NoError(t, err)
	amount := int64(300)
	_, err = eng.Cards.Simulate(ctx, card.ID, payments.CardAuthorization, payments.CardSimulation{Amount: &amount,
		Currency: &payments.CurrencyCode{Code: "USD"}, Merchant: &payments.CardMerchant{Descriptor: "SHOP"}})
	require.NoError(t, err)
	_, err = eng.Cards.Update(ctx, card.ID, payments.UpdateCardRequest{State: "FROZEN"})
	require.NoError(t, err)

	biz, err := eng.Customers.Create(ctx, enginetest.FullBusiness("REG-100"))
	require.NoError(t, err)
	_, err = eng.Customers.SubmitVerification(ctx, biz.ID)
	require.NoError(t, err)

	pol := enginetest.AutoPolicy(1_000_000, nil)
	pol.DefaultExecutionMode = agents.ApprovalRequired
	created, err := eng.Agents.Create(ctx, payments.AgentCreateRequest{Name: "bot", CustomerID: holder, Policy: &pol})
	require.NoError(t, err)
	_, err = eng.Agents.Redeem(ctx, created.DeviceCode.Code)
	require.NoError(t, err)
	action, err := eng.Agents.TransferOut(ctx, created.Agent.ID, payments.AgentTransfer{SourceAccountID: acct, DestinationAccountID: ext.ID, Amount: 100})
	require.NoError(t, err)

	holderRec, err := eng.Customers.Get(ctx, holder)
	require.NoError(t, err)
	inv, err := eng.Invitations.Create(ctx, payments.InvitationRequest{InviterUma: holderRec.UmaAddress})
	require.NoError(t, err)
	_, err = eng.Invitations.Claim(ctx, inv.Code, "$bob@other.example")
	require.NoError(t, err)

	job, err := eng.Customers.Import(ctx, []byte("platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country\n"+
		"p1,INDIVIDUAL,Bulk Person,1990-01-15,1 Main St,Austin,TX,78701,US\n"))
	require.NoError(t, err)
	_, err = eng.ProcessDue(ctx)
	require.NoError(t, err)
	_, err = eng.Webhooks.Flush(ctx)
	require.NoError(t, err)

	// Each decoder, with what the record it decodes must name.
	type decoded struct{ id, status string }
	decoders := map[string]func(payments.Event) (decoded, error){
		"OUTGOING_PAYMENT.": func(ev payments.Event) (decoded, error) {
			x, err := payments.TransactionOf(ev)
			return decodedOr(err, func() decoded { return decoded{x.ID, string(x.Type) + "_PAYMENT." + string(x.Status)} })
		},
		"INTERNAL_ACCOUNT.": func(ev payments.Event) (decoded, error) {
			x, err := payments.InternalAccountOf(ev)
			return decodedOr(err, func() decoded { return decoded{x.ID, x.Currency} })
		},
		"EXTERNAL_ACCOUNT.": func(ev payments.Event) (decoded, error) {
			x, err := payments.ExternalAccountOf(ev)
			return decodedOr(err, func() decoded { return decoded{x.ID, string(x.Status)} })
		},
		"CUSTOMER.": func(ev payments.Event) (decoded, error) {
			x, err := payments.CustomerOf(ev)
			return decodedOr(err, func() decoded { return decoded{x.ID, string(x.Status())} })
		},
		"VERIFICATION.": func(ev payments.Event) (decoded, error) {
			x, err := payments.VerificationOf(ev)
			return decodedOr(err, func() decoded { return decoded{x.ID, "VERIFICATION." + string(x.VerificationStatus)} })
		},
		"CARD.": func(ev payments.Event) (decoded, error) {
			x, err := payments.CardOf(ev)
			return decodedOr(err, func() decoded { return decoded{x.ID, string(x.State)} })
		},
		"CARD_TRANSACTION.": func(ev payments.Event) (decoded, error) {
			x, err := payments.CardTransactionOf(ev)
			return decodedOr(err, func() decoded { return decoded{x.ID, "CARD_TRANSACTION." + string(x.Status)} })
		},
		"AGENT_ACTION.": func(ev payments.Event) (decoded, error) {
			x, err := payments.AgentActionOf(ev)
			return decodedOr(err, func() decoded { return decoded{x.ID, string(x.Status)} })
		},
		"INVITATION.": func(ev payments.Event) (decoded, error) {
			x, err := payments.InvitationOf(ev)
			return decodedOr(err, func() decoded { return decoded{x.Code, x.Status} })
		},
		"BULK_UPLOAD.": func(ev payments.Event) (decoded, error) {
			x, err := payments.BulkJobOf(ev)
			return decodedOr(err, func() decoded { return decoded{x.ID, "BULK_UPLOAD." + x.Status} })
		},
	}
	decoders["INCOMING_PAYMENT."] = decoders["OUTGOING_PAYMENT."]
	byType := map[payments.EventType]decoded{}
	for _, ev := range e.Rec.Events() {
		if ev.Type == payments.EventTest {
			continue // its data is {}
		}
		prefix := string(ev.Type[:strings.IndexByte(string(ev.Type), '.')+1])
		decode, ok := decoders[prefix]
		if !assert.True(t, ok, "no decoder for %s", ev.Type) {
			continue
		}
		d, err := decode(ev)
		require.NoError(t, err, "decoding %s", ev.Type)
		assert.NotEmpty(t, d.id, ev.Type)
		byType[ev.Type] = d
		// Every other decoder refuses it.
		for other, decode := range decoders {
			if other != prefix && !(strings.HasSuffix(other, "_PAYMENT.") && strings.HasSuffix(prefix, "_PAYMENT.")) {
				_, err := decode(ev)
				enginetest.RequireCode(t, err, payments.CodeInvalidInput)
			}
		}
	}
	for typ, want := range map[payments.EventType]decoded{
		payments.EventOutgoingPaymentCompleted:      {q.TransactionID, "OUTGOING_PAYMENT.COMPLETED"},
		payments.EventOutgoingPaymentPending:        {q.TransactionID, "OUTGOING_PAYMENT.PENDING"},
		payments.EventInternalAccountBalanceUpdated: {acct, "USD"},
		payments.EventCardStateChange:               {card.ID, "FROZEN"},
		payments.EventVerificationApproved:          {"", "VERIFICATION.APPROVED"},
		payments.EventCustomerKYBApproved:           {biz.ID, "APPROVED"},
		payments.EventAgentActionPendingApproval:    {action.ID, "PENDING_APPROVAL"},
		payments.EventInvitationClaimed:             {inv.Code, "CLAIMED"},
		payments.EventBulkUploadCompleted:           {job.ID, "BULK_UPLOAD.COMPLETED"},
	} {
		got, ok := byType[typ]
		if assert.True(t, ok, "no %s event was emitted", typ) && want.id != "" {
			assert.Equal(t, want, got, typ)
		}
	}
	var incoming, cardTx bool
	for typ, d := range byType {
		incoming = incoming || strings.HasPrefix(string(typ), "INCOMING_PAYMENT.") && d.status == string(typ)
		cardTx = cardTx || typ == payments.EventCardTransactionAuthorized && d.status == string(typ)
	}
	assert.True(t, incoming, "an incoming payment event decodes to its transaction")
	assert.True(t, cardTx, "a card authorization decodes to its card transaction")
}

// decodedOr returns what f reads from a decoded record, or err.
func decodedOr[T any](err error, f func() T) (T, error) {
	if err != nil {
		var zero T
		return zero, err
	}
	return f(), nil
}
