package customers

import (
	"context"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/platform"
	"github.com/paygrid/payments/walletauth"
)

// Area declares the customers area's tables and background work for
// payments.New to register: customers, verifications, documents,
// beneficial owners, contact codes, bulk imports and SCA state, with the
// indexes their lists read; the intent kind that delivers one-time codes
// through cfg.Codes; and the due-work pass that resumes bulk imports. A nil
// cfg.KYC is replaced by the default provider (see KYCProvider).
func Area(e *engine.Handle, cfg Options) engine.AreaDef {
	if cfg.KYC == nil {
		cfg.KYC = defaultKYC{}
	}
	st := &customersState{Options: cfg}
	return engine.AreaDef{
		Codes: codes,
		State: []engine.SlotEntry{customersSlot.With(st)},
		Tables: []engine.TableDef{
			{Name: tableCustomers, Record: func() any { return new(Record) },
				Ix: engine.Indexed(tableCustomers, func(x *Record) time.Time { return x.CreatedAt },
					engine.Every[Record](),
					engine.Ix(ixPlatform, func(x *Record) string { return x.PlatformCustomerID }),
					engine.Ix(ixUma, func(x *Record) string { return x.UmaAddress }),
					engine.Ix(engine.IxType, func(x *Record) string { return string(x.CustomerType) }),
					engine.Ix(engine.IxStatus, func(x *Record) string { return customerStatusValue(x.CustomerType, x.Status()) })),
				Rows: &engine.Rows{Columns: []engine.Column{
					engine.TextColumn("customer_type", "customerType"),
					engine.TextColumn("platform_customer_id", "platformCustomerId"),
					engine.TextColumn("uma_address", "umaAddress"),
					engine.TextColumn("full_name", "fullName"),
					engine.TextColumn("legal_name", "businessInfo.legalName"),
					engine.TextColumn("kyc_status", "kycStatus"),
					engine.TextColumn("kyb_status", "kybStatus"),
					engine.BoolColumn("is_deleted", "isDeleted"),
					engine.TimeColumn("created_at", "createdAt"),
					engine.TimeColumn("updated_at", "updatedAt"),
				}, Created: "created_at", Lists: map[string][]string{
					engine.IxAll:  nil,
					ixPlatform:    {"platform_customer_id"},
					ixUma:         {"uma_address"},
					engine.IxType: {"customer_type"},
				}, Kept: []string{engine.IxStatus}}},
			{Name: tableCustomerUma},
			{Name: tableCustomerPlatformIDs},
			{Name: tableVerifications, Record: func() any { return new(Verification) },
				Ix: engine.Indexed(tableVerifications, func(x *Verification) time.Time { return x.CreatedAt },
					engine.Every[Verification](),
					engine.Ix(ixCustomer, func(x *Verification) string { return x.CustomerID }),
					engine.Ix(engine.IxStatus, func(x *Verification) string { return string(x.VerificationStatus) }))},
			{Name: tableDocuments, Record: func() any { return new(Document) },
				Ix: engine.Indexed(tableDocuments, func(x *Document) time.Time { return x.CreatedAt },
					engine.Every[Document](),
					engine.Ix(ixHolder, func(x *Document) string { return x.DocumentHolder }))},
			{Name: tableDocumentFiles},
			{Name: tableDocumentsByHolder},
			{Name: tableBeneficialOwners, Record: func() any { return new(BeneficialOwner) },
				Ix: engine.Indexed(tableBeneficialOwners, func(x *BeneficialOwner) time.Time { return x.CreatedAt },
					engine.Ix(ixCustomer, func(x *BeneficialOwner) string { return x.CustomerID }))},
			{Name: tableContactCodes, Record: func() any { return new(contactCode) }},
			{Name: tableBulkJobs, Record: func() any { return new(bulkJobRecord) }},
			{Name: tableBulkJobsDue},
			{Name: tableSCA, Record: func() any { return new(SCARecord) }},
			{Name: tableSCAResets, Record: func() any { return new(scaResetRecord) }},
		},
		Intents: []engine.IntentKind{codeIntentKind(cfg.Codes)},
		Passes:  []func(ctx context.Context) (int, error){func(ctx context.Context) (int, error) { return resumeBulkJobs(e, ctx) }},
	}
}

// Options is what payments.New gives the customers area: its providers,
// the SCA passkeys' relying party, and the hooks of the areas above it
// that a customer's changes reach. The hooks are required (payments.New
// sets all three): a nil hook panics when it is first needed.
type Options struct {
	// KYC decides verifications (payments.Config.KYC); nil is the default
	// provider.
	KYC KYCProvider
	// Codes delivers one-time codes after commit (payments.Config.Codes);
	// nil delivers nothing.
	Codes CodeSender
	// SCAPasskeys is the WebAuthn relying party of SCA passkeys
	// (payments.Config.SCAPasskeys); a zero ID means RP ID "localhost"
	// (RelyingParty).
	SCAPasskeys walletauth.RelyingParty
	// OpenAccounts opens, inside t, the customer's internal accounts in
	// the currencies it lacks one in (accounts.OpenInternal). Called by
	// create and update once the customer may hold money.
	OpenAccounts func(t *engine.Txn, owner string, currencies []string) error
	// ProvisionWallet opens the customer's embedded wallet when it gets
	// one (wallets.Provision), right after OpenAccounts.
	ProvisionWallet func(t *engine.Txn, r *Record, p *platform.Config) error
	// ContactChanged moves what is tied to the customer's email or phone
	// (wallet credentials) along with an Update, which is not signed
	// (wallets area): an error, such as the refusal of a change that needs
	// the wallet's signature, aborts the update.
	ContactChanged func(t *engine.Txn, r *Record, oldEmail, oldPhone string, in CustomerInput) error
}

// customersState is the customers area's state: its configuration and
// the customers decoded lately.
type customersState struct {
	Options
	cache engine.ReadCache[Record]
}

// customersSlot finds the customers area's state on an engine handle.
var customersSlot engine.Slot[customersState]

// customerStatusValue is the ixStatus value of customers: a KYC filter
// (individuals) and a KYB filter (businesses) each name one type, so the
// value carries the type ("INDIVIDUAL/APPROVED") and one index serves both.
func customerStatusValue(typ CustomerType, s KYCStatus) string {
	if s == "" {
		return ""
	}
	return string(typ) + "/" + string(s)
}

// KYC returns the KYC provider of h's engine (the default one when none was
// configured), which the areas above ask whether a customer needs SCA
// (SCARequired) and for one-time codes (ContactCode, drawn before the
// transaction that stores the code's hash).
func KYC(h *engine.Handle) KYCProvider { return customersSlot.Of(h).KYC }
