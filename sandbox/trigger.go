package sandbox

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/agents"
	"github.com/paygrid/payments/validate"
)

// trigger is one run of Controls.Trigger: the engine's own operations on
// fresh fixture records, and what they made.
type trigger struct {
	ctx context.Context
	c   *Controls
	eng *payments.Engine
	out *payments.Triggered
	// start is the engine clock's reading when the flow began.
	start time.Time
}

// flow makes its event type happen.
type flow func(r *trigger) error

// flows are the flows of the event types Trigger makes happen. Each runs
// the real flow behind its type on fixture records it makes (a customer
// using USD and EUR, its accounts, quotes), with the sandbox providers'
// conventions: account-number suffixes pick a payout's outcome, UMA
// senders an incoming payment's, an EU region asks for SCA.
var flows = map[payments.EventType]flow{
	payments.EventInternalAccountBalanceUpdated:       (*trigger).funded,
	payments.EventIncomingPaymentCompleted:            (*trigger).funded,
	payments.EventIncomingPaymentPending:              func(r *trigger) error { return r.receive(UMASuccessUSD) },
	payments.EventIncomingPaymentFailed:               func(r *trigger) error { return r.receive(UMAFailComplianceUS) },
	payments.EventOutgoingPaymentPending:              func(r *trigger) error { return r.payout("123456789") },
	payments.EventOutgoingPaymentProcessing:           func(r *trigger) error { return r.payout("123456789") },
	payments.EventOutgoingPaymentCompleted:            func(r *trigger) error { return r.payout("123456789") },
	payments.EventOutgoingPaymentFailed:               func(r *trigger) error { return r.payout("123456002") },
	payments.EventOutgoingPaymentRefundPending:        func(r *trigger) error { return r.payout("123456002") },
	payments.EventOutgoingPaymentRefundCompleted:      func(r *trigger) error { return r.payout("123456002") },
	payments.EventOutgoingPaymentRefundFailed:         func(r *trigger) error { return r.payout("123456007") },
	payments.EventOutgoingPaymentExpired:              (*trigger).expired,
	payments.EventOutgoingPaymentPendingAuthorization: (*trigger).sca,
	payments.EventCardStateChange:                     (*trigger).cardFrozen,
	payments.EventCardFundingSourceChange:             (*trigger).cardFunding,
	payments.EventCardTransactionAuthorized:           func(r *trigger) error { return r.cardTx(300, 0, false) },
	payments.EventCardTransactionSettled:              func(r *trigger) error { return r.cardTx(300, 300, false) },
	payments.EventCardTransactionPartiallySettled:     func(r *trigger) error { return r.cardTx(300, 100, false) },
	payments.EventCardTransactionRefunded:             func(r *trigger) error { return r.cardTx(300, 300, true) },
	payments.EventCardTransactionException:            func(r *trigger) error { return r.cardTx(300, 600, false) },
	payments.EventAgentActionPendingApproval:          (*trigger).agentAction,
	payments.EventInvitationClaimed:                   (*trigger).invitation,
	payments.EventBulkUploadCompleted: func(r *trigger) error {
		return r.bulk("p-" + r.eng.Now().Format("150405.000000") + ",INDIVIDUAL,Bulk Person,1990-01-15,1 Main St,Austin,TX,78701,US\n")
	},
	payments.EventBulkUploadFailed:                func(r *trigger) error { return r.bulk(",NOBODY,,,,,,,\n") },
	payments.EventTest:                            (*trigger).test,
	payments.EventCustomerKYCApproved:             kyc("Trigger Fixture", true),
	payments.EventVerificationApproved:            kyc("Trigger Fixture", true),
	payments.EventCustomerKYCPending:              kyc("Trigger Review 001", true),
	payments.EventVerificationPendingManualReview: kyc("Trigger Review 001", true),
	payments.EventCustomerKYCRejected:             kyc("Trigger Rejected 002", true),
	payments.EventVerificationRejected:            kyc("Trigger Rejected 002", true),
	payments.EventVerificationResolveErrors:       kyc("Trigger Fixture", false),
	payments.EventCustomerKYBApproved:             kyb("TRG-777"),
	payments.EventCustomerKYBRejected:             kyb("TRG-002"),
	payments.EventCustomerKYBPending:              kyb("TRG-003"),
	payments.EventExternalAccountStatusUpdated:    (*trigger).ownership,
}

// TriggerTypes are the event types Trigger makes happen, sorted.
func TriggerTypes() []payments.EventType {
	out := make([]payments.EventType, 0, len(flows))
	for typ := range flows {
		out = append(out, typ)
	}
	slices.Sort(out)
	return out
}

// TriggerTypes are the event types Trigger makes happen (TriggerTypes),
// for the servers that serve c.
func (c *Controls) TriggerTypes() []payments.EventType { return TriggerTypes() }

// Trigger makes an event of type typ happen, as `stripe trigger` does: it
// runs the real flow that produces that type, through the engine's own
// operations, on fixture records it makes (a customer, its accounts, a
// quote, a card...), then delivers the webhooks due, and answers what it
// made and the ids of the events of that type. The events are real: sent
// to the platform's webhook endpoint like any other.
//
// A type that is not among TriggerTypes is INVALID_INPUT naming
// eventType. A flow that needs what the engine lacks (a card issuer, a
// webhook endpoint for invitations) fails with that operation's error. An
// expiry moves the clock forward past the quote's expiry (as an
// Advance would), applying everything due on the way.
func (c *Controls) Trigger(ctx context.Context, typ payments.EventType) (*payments.Triggered, error) {
	f, ok := flows[typ]
	if !ok {
		var fe validate.Errors
		fe.Add("eventType", nil, "eventType must be one of the event types the sandbox triggers (GET /sandbox/trigger lists them)")
		return nil, payments.Invalid(fe)
	}
	if !c.Engine.Sandbox.Enabled() {
		return nil, payments.Errorf(payments.CodeForbidden, "sandbox operations are not available on this platform")
	}
	r := &trigger{ctx: ctx, c: c, eng: c.Engine, start: c.Engine.Now(), out: &payments.Triggered{EventType: typ, Records: []payments.TriggeredRecord{}, EventIDs: []string{}}}
	if err := f(r); err != nil {
		return nil, err
	}
	if err := c.Engine.Sandbox.RunDue(ctx); err != nil {
		return nil, err
	}
	r.collect()
	return r.out, nil
}

// made notes a record the flow made or changed.
func (r *trigger) made(kind, id string) {
	r.out.Records = append(r.out.Records, payments.TriggeredRecord{Kind: kind, ID: id})
}

// collect finds the events of the type asked for that describe the records
// made: waiting, given up, or in the event history.
func (r *trigger) collect() {
	seen := map[string]bool{}
	add := func(ds []payments.WebhookDelivery) {
		for _, d := range ds {
			if d.Event.Type == r.out.EventType && !seen[d.Event.ID] {
				seen[d.Event.ID] = true
				r.out.EventIDs = append(r.out.EventIDs, d.Event.ID)
			}
		}
	}
	for _, rec := range r.out.Records {
		if page, err := r.eng.Webhooks.ListDeliveries(r.ctx, payments.DeliveryFilter{Resource: rec.ID}, payments.ListParams{Limit: payments.MaxLimit}); err == nil {
			add(page.Data)
		}
		if ds, err := r.eng.Webhooks.PendingDeliveries(r.ctx, rec.ID, 1000); err == nil {
			add(ds)
		}
	}
	if len(r.out.EventIDs) > 0 {
		return
	}
	// Events whose data names no record by id (an invitation's): those of
	// the type emitted since the flow began.
	var recent []payments.WebhookDelivery
	if page, err := r.eng.Webhooks.ListDeliveries(r.ctx, payments.DeliveryFilter{}, payments.ListParams{Limit: payments.MaxLimit, Desc: true}); err == nil {
		recent = page.Data
	}
	if ds, err := r.eng.Webhooks.PendingDeliveries(r.ctx, "", 1000); err == nil {
		recent = append(recent, ds...)
	}
	add(slices.DeleteFunc(recent, func(d payments.WebhookDelivery) bool { return d.Event.Timestamp.Before(r.start) }))
}

// customer makes a fixture customer using USD and EUR (with mutate applied)
// that accepted the end-user terms, and returns it with its USD account.
func (r *trigger) customer(mutate func(*payments.CustomerInput)) (id, usd string, err error) {
	in := payments.CustomerInput{CustomerType: payments.CustomerIndividual, Identifier: "123-45-6789", Currencies: []string{"USD", "EUR"},
		Email: "fixture@example.com", PhoneNumber: "+14155550123",
		AgreementConsents: []payments.AgreementConsent{{Type: payments.AgreementProviderEndUserTerms, TermsVersion: payments.CurrentEndUserTerms.Version,
			AcceptedAt: r.eng.Now(), IPAddress: "203.0.113.7", AcceptanceMethod: "CHECKBOX"}},
		Profile: payments.CustomerProfile{FullName: "Trigger Fixture", BirthDate: "1990-01-15", Nationality: "US", IDType: "SSN",
			Address: &payments.Address{Line1: "1 Main St", City: "Austin", State: "TX", PostalCode: "78701", Country: "US"}}}
	if mutate != nil {
		mutate(&in)
	}
	c, err := r.eng.Customers.Create(r.ctx, in)
	if err != nil {
		return "", "", err
	}
	r.made("Customer", c.ID)
	page, err := r.eng.Accounts.ListInternal(r.ctx, payments.InternalAccountFilter{CustomerID: c.ID, Currency: "USD"}, payments.CustomerScope, payments.ListParams{})
	if err != nil {
		return "", "", err
	}
	if len(page.Data) == 0 {
		return "", "", payments.Errorf(payments.CodeAccountNotFound, "the fixture customer %s has no USD account", c.ID)
	}
	return c.ID, page.Data[0].ID, nil
}

// verified is customer named name, verified: a passport uploaded and the
// verification submitted when it starts UNVERIFIED (a platform that
// decides at creation already has). The sandbox KYC provider decides by
// the name's suffix: 001 pending review, 002 rejected, others approved;
// without the passport the packet has errors to resolve.
func (r *trigger) verified(name string, passport bool) (id, usd string, err error) {
	if id, usd, err = r.customer(func(in *payments.CustomerInput) { in.FullName = name }); err != nil {
		return "", "", err
	}
	c, err := r.eng.Customers.Get(r.ctx, id)
	if err != nil || c.Status() != payments.KYCUnverified {
		return id, usd, err
	}
	if passport {
		doc, err := r.eng.Documents.Upload(r.ctx, payments.DocumentUpload{DocumentHolder: id, DocumentType: "PASSPORT", Country: "US",
			FileName: "passport.png", Content: []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")})
		if err != nil {
			return "", "", err
		}
		r.made("Document", doc.ID)
	}
	v, err := r.eng.Customers.SubmitVerification(r.ctx, id)
	if err != nil {
		return "", "", err
	}
	r.made("Verification", v.ID)
	return id, usd, nil
}

// kyc verifies a customer named name (verified).
func kyc(name string, passport bool) flow {
	return func(r *trigger) error {
		_, _, err := r.verified(name, passport)
		return err
	}
}

// fundedCustomer is a verified customer with $1,000.00 funded to its USD
// account.
func (r *trigger) fundedCustomer() (id, usd string, err error) {
	if id, usd, err = r.verified("Trigger Fixture", true); err != nil {
		return "", "", err
	}
	if _, err := r.eng.Sandbox.Fund(r.ctx, usd, 100_000); err != nil {
		return "", "", err
	}
	r.made("InternalAccount", usd)
	return id, usd, r.fundingTx(usd)
}

// fundingTx notes the deposit transaction of the last funding of acct.
func (r *trigger) fundingTx(acct string) error {
	page, err := r.eng.Transactions.List(r.ctx, payments.TransactionFilter{Type: payments.TxIncoming, ReceiverAccountIdentifier: acct},
		payments.ListParams{Limit: 1, Desc: true})
	if err == nil && len(page.Data) > 0 {
		r.made("Transaction", page.Data[0].ID)
	}
	return err
}

// funded funds a fixture account: INCOMING_PAYMENT.COMPLETED and
// INTERNAL_ACCOUNT.BALANCE_UPDATED.
func (r *trigger) funded() error {
	_, _, err := r.fundedCustomer()
	return err
}

// receive is an incoming UMA payment from sender to a fixture customer.
func (r *trigger) receive(sender string) error {
	id, _, err := r.customer(nil)
	if err != nil {
		return err
	}
	tx, err := r.eng.Sandbox.Receive(r.ctx, payments.ReceiveRequest{CustomerID: id, SenderUmaAddress: sender,
		ReceivingCurrencyCode: "USD", ReceivingCurrencyAmount: 2_500})
	if err != nil {
		return err
	}
	r.made("Transaction", tx.ID)
	return nil
}

// bank adds a US bank account ending in number to customer.
func (r *trigger) bank(customer, number string) (string, error) {
	info, _ := json.Marshal(map[string]any{"accountType": "USD_ACCOUNT", "accountNumber": number, "routingNumber": "021000021",
		"beneficiary": map[string]any{"beneficiaryType": "INDIVIDUAL", "fullName": "Trigger Fixture"}})
	ext, err := r.eng.Accounts.CreateExternal(r.ctx, payments.ExternalAccountInput{CustomerID: customer, Currency: "USD", AccountInfo: info}, payments.CustomerScope)
	if err != nil {
		return "", err
	}
	r.made("ExternalAccount", ext.ID)
	return ext.ID, nil
}

// payout pays $10.00 from a funded fixture account to a bank account
// ending in number, executed at once: 789 completes, 002 fails and is
// refunded, 007 fails and its refund fails.
func (r *trigger) payout(number string) error {
	id, usd, err := r.fundedCustomer()
	if err != nil {
		return err
	}
	ext, err := r.bank(id, number)
	if err != nil {
		return err
	}
	q, err := r.eng.Quotes.Create(r.ctx, payments.QuoteRequest{Source: payments.QuoteSource{SourceType: payments.SourceAccount, AccountID: usd},
		Destination:        payments.QuoteDestination{DestinationType: payments.DestinationAccount, AccountID: ext},
		LockedCurrencySide: payments.LockedSending, LockedCurrencyAmount: 1_000, ImmediatelyExecute: true})
	if err != nil {
		return err
	}
	r.made("Quote", q.ID)
	r.made("Transaction", q.TransactionID)
	return nil
}

// expired quotes a payout and lets the quote expire: the clock moves past
// its expiry.
func (r *trigger) expired() error {
	id, usd, err := r.fundedCustomer()
	if err != nil {
		return err
	}
	ext, err := r.bank(id, "123456789")
	if err != nil {
		return err
	}
	q, err := r.eng.Quotes.Create(r.ctx, payments.QuoteRequest{Source: payments.QuoteSource{SourceType: payments.SourceAccount, AccountID: usd},
		Destination:        payments.QuoteDestination{DestinationType: payments.DestinationAccount, AccountID: ext},
		LockedCurrencySide: payments.LockedSending, LockedCurrencyAmount: 1_000})
	if err != nil {
		return err
	}
	r.made("Quote", q.ID)
	r.made("Transaction", q.TransactionID)
	return r.c.Advance(r.ctx, payments.ClockAdvance{To: q.ExpiresAt.Add(time.Second)})
}

// sca quotes a real-time funded payment for a customer in an SCA region:
// the quote waits for authorization.
func (r *trigger) sca() error {
	id, _, err := r.customer(func(in *payments.CustomerInput) {
		in.Region, in.Email, in.PhoneNumber = "DE", "erika@example.com", "+4915112345678"
	})
	if err != nil {
		return err
	}
	info := json.RawMessage(`{"accountType":"EUR_ACCOUNT","iban":"DE89370400440532013000","beneficiary":{"beneficiaryType":"INDIVIDUAL","fullName":"Trigger Fixture","countryOfResidence":"DE"}}`)
	ext, err := r.eng.Accounts.CreateExternal(r.ctx, payments.ExternalAccountInput{CustomerID: id, Currency: "EUR", AccountInfo: info}, payments.CustomerScope)
	if err != nil {
		return err
	}
	r.made("ExternalAccount", ext.ID)
	q, err := r.eng.Quotes.Create(r.ctx, payments.QuoteRequest{
		Source:             payments.QuoteSource{SourceType: payments.SourceRealtimeFunding, Currency: "USD", CustomerID: id},
		Destination:        payments.QuoteDestination{DestinationType: payments.DestinationAccount, AccountID: ext.ID},
		LockedCurrencySide: payments.LockedSending, LockedCurrencyAmount: 2_000, ScaFactor: "SMS_OTP"})
	if err != nil {
		return err
	}
	r.made("Quote", q.ID)
	r.made("Transaction", q.TransactionID)
	return nil
}

// card issues a card on a funded fixture account.
func (r *trigger) card() (card, usd string, err error) {
	id, usd, err := r.fundedCustomer()
	if err != nil {
		return "", "", err
	}
	c, err := r.eng.Cards.Create(r.ctx, payments.CreateCardRequest{CardholderID: id, Form: "VIRTUAL", FundingSources: []string{usd}})
	if err != nil {
		return "", "", err
	}
	r.made("Card", c.ID)
	return c.ID, usd, nil
}

// cardFrozen freezes a new card.
func (r *trigger) cardFrozen() error {
	card, _, err := r.card()
	if err != nil {
		return err
	}
	_, err = r.eng.Cards.Update(r.ctx, card, payments.UpdateCardRequest{State: "FROZEN"})
	return err
}

// cardFunding sets the card's funding sources (to the one it has: a USD
// card's sources are its holder's USD accounts, and the fixture has one).
func (r *trigger) cardFunding() error {
	card, usd, err := r.card()
	if err != nil {
		return err
	}
	_, err = r.eng.Cards.Update(r.ctx, card, payments.UpdateCardRequest{FundingSources: []string{usd}})
	return err
}

// cardTx authorizes amount on a new card, clears cleared of it (more than
// the funds hold: an exception) and, with refund, returns what cleared.
func (r *trigger) cardTx(amount, cleared int64, refund bool) error {
	card, _, err := r.card()
	if err != nil {
		return err
	}
	usd := &payments.CurrencyCode{Code: "USD"}
	res, err := r.eng.Cards.Simulate(r.ctx, card, payments.CardAuthorization, payments.CardSimulation{Amount: &amount, Currency: usd,
		Merchant: &payments.CardMerchant{Descriptor: "SANDBOX SHOP"}})
	if err != nil {
		return err
	}
	if res.Transaction == nil {
		return payments.Errorf(payments.CodeConflict, "the card authorization was declined: %s", res.Decline)
	}
	r.made("CardTransaction", res.Transaction.ID)
	if cleared > 0 {
		if cleared > amount {
			cleared = 100_000 + amount // beyond the account's funds
		}
		if _, err := r.eng.Cards.Simulate(r.ctx, card, payments.CardClearing, payments.CardSimulation{Amount: &cleared, Currency: usd,
			CardTransactionID: res.Transaction.ID}); err != nil {
			return err
		}
	}
	if refund {
		if _, err := r.eng.Cards.Simulate(r.ctx, card, payments.CardReturn, payments.CardSimulation{Amount: &cleared, Currency: usd,
			CardTransactionID: res.Transaction.ID}); err != nil {
			return err
		}
	}
	return nil
}

// agentAction has an agent that needs its customer's approval transfer
// out: the action waits for approval.
func (r *trigger) agentAction() error {
	id, usd, err := r.fundedCustomer()
	if err != nil {
		return err
	}
	ext, err := r.bank(id, "123456789")
	if err != nil {
		return err
	}
	pol := agents.Policy{Permissions: []agents.Permission{agents.CreateQuotes, agents.ExecuteQuotes, agents.CreateTransfers, agents.ViewTransactions},
		DefaultExecutionMode: agents.ApprovalRequired, SpendingLimits: agents.SpendingLimits{Currency: "USD", PerTransactionLimit: 1_000_000}}
	created, err := r.eng.Agents.Create(r.ctx, payments.AgentCreateRequest{Name: "trigger", CustomerID: id, Policy: &pol})
	if err != nil {
		return err
	}
	r.made("Agent", created.Agent.ID)
	if _, err := r.eng.Agents.Redeem(r.ctx, created.DeviceCode.Code); err != nil {
		return err
	}
	action, err := r.eng.Agents.TransferOut(r.ctx, created.Agent.ID, payments.AgentTransfer{SourceAccountID: usd, DestinationAccountID: ext, Amount: 100})
	if err != nil {
		return err
	}
	r.made("AgentAction", action.ID)
	return nil
}

// invitation has a fixture customer invite someone, who claims it.
func (r *trigger) invitation() error {
	id, _, err := r.customer(nil)
	if err != nil {
		return err
	}
	c, err := r.eng.Customers.Get(r.ctx, id)
	if err != nil {
		return err
	}
	inv, err := r.eng.Invitations.Create(r.ctx, payments.InvitationRequest{InviterUma: c.UmaAddress})
	if err != nil {
		return err
	}
	r.made("Invitation", inv.Code)
	_, err = r.eng.Invitations.Claim(r.ctx, inv.Code, "$invitee@other.example")
	return err
}

// bulk imports a CSV of customers with rows; the job runs as due work.
func (r *trigger) bulk(rows string) error {
	job, err := r.eng.Customers.Import(r.ctx, []byte("platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country\n"+rows))
	if err != nil {
		return err
	}
	r.made("BulkJob", job.ID)
	return nil
}

// test sends the platform's webhook endpoint a TEST event.
func (r *trigger) test() error {
	_, err := r.eng.Webhooks.SendTest(r.ctx)
	return err
}

// kyb verifies a business whose registration number is reg, with its
// certificate of incorporation and a 60% owner: the sandbox KYC provider
// decides by reg's suffix (002 rejected, 003 pending review, others
// approved).
func kyb(reg string) flow {
	return func(r *trigger) error {
		in := payments.CustomerInput{CustomerType: payments.CustomerBusiness, Currencies: []string{"USD"},
			AgreementConsents: []payments.AgreementConsent{{Type: payments.AgreementProviderEndUserTerms, TermsVersion: payments.CurrentEndUserTerms.Version,
				AcceptedAt: r.eng.Now(), IPAddress: "203.0.113.7", AcceptanceMethod: "CHECKBOX"}},
			Profile: payments.CustomerProfile{Address: &payments.Address{Line1: "400 Commerce Way", City: "Austin", State: "TX", PostalCode: "78701", Country: "US"},
				BusinessInfo: &payments.BusinessInfo{LegalName: "Trigger Fixture Corp", Country: "US", TaxID: "12-3456789",
					IncorporatedOn: "2015-03-01", RegistrationNumber: reg}}}
		c, err := r.eng.Customers.Create(r.ctx, in)
		if err != nil {
			return err
		}
		r.made("Customer", c.ID)
		if c.Status() != payments.KYCUnverified {
			return nil // decided at creation
		}
		doc, err := r.eng.Documents.Upload(r.ctx, payments.DocumentUpload{DocumentHolder: c.ID, DocumentType: "CERTIFICATE_OF_INCORPORATION",
			Country: "US", FileName: "certificate.png", Content: []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")})
		if err != nil {
			return err
		}
		r.made("Document", doc.ID)
		pct := 60
		o, err := r.eng.Customers.CreateBeneficialOwner(r.ctx, payments.OwnerInput{CustomerID: c.ID, Roles: []string{"UBO"}, OwnershipPercentage: &pct,
			PersonalInfo: payments.OwnerPersonalInfo{FirstName: "Ada", LastName: "Fixture", BirthDate: "1980-02-02", Nationality: "US",
				IDType: "SSN", Identifier: "111-22-3333", Address: &payments.Address{Line1: "1 Main St", PostalCode: "78701", Country: "US"}}})
		if err != nil {
			return err
		}
		r.made("BeneficialOwner", o.ID)
		v, err := r.eng.Customers.SubmitVerification(r.ctx, c.ID)
		if err != nil {
			return err
		}
		r.made("Verification", v.ID)
		return nil
	}
}

// ownership adds a customer's own Solana wallet, which must prove its
// ownership, and answers its signature challenge with a signature that
// does not verify: the account becomes UNVERIFIED.
func (r *trigger) ownership() error {
	id, _, err := r.customer(nil)
	if err != nil {
		return err
	}
	info := json.RawMessage(`{"accountType":"SOLANA_WALLET","address":"EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"}`)
	ext, err := r.eng.Accounts.CreateExternal(r.ctx, payments.ExternalAccountInput{CustomerID: id, Currency: "USDC", OwnershipType: "FIRST_PARTY",
		AccountInfo: info}, payments.CustomerScope)
	if err != nil {
		return err
	}
	r.made("ExternalAccount", ext.ID)
	if _, err := r.eng.Accounts.CreateOwnershipChallenge(r.ctx, ext.ID, payments.CustomerScope, ""); err != nil {
		return err
	}
	_, err = r.eng.Accounts.VerifyOwnership(r.ctx, ext.ID, payments.CustomerScope, "1111111111111111111111111111111111111111111111111111111111111111", "")
	if payments.CodeOf(err) == payments.CodeInvalidInput {
		return nil // refused, as it should be: the account is UNVERIFIED
	}
	return err
}
