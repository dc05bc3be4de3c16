// Package accounts is the accounts area: the internal accounts the
// platform holds on its double-entry ledger (for each customer and for the
// platform itself, one per currency), the external accounts money goes to
// and comes from (bank accounts and wallets outside the platform),
// beneficiary trust, proofs that a customer owns a self-custody wallet, and
// the sandbox's funding of internal accounts.
//
// # Vocabulary
//
// InternalAccount is a balance held on the ledger. Its id is its ledger
// account: the available balance is the balance of the id, the funds held
// for payments in flight the balance of Held(id). InternalAccountView adds
// both balances and the instructions that fund the account. AccountType is
// INTERNAL_FIAT, INTERNAL_CRYPTO, or EMBEDDED_WALLET for the wallets that
// package wallets opens.
//
// ExternalAccount is rails.ExternalAccount, defined there because a rail
// receives it; ExternalRecord is one as stored, with the area's own state
// beside it (the uniqueness key, beneficiary trust, the challenges
// outstanding, the end of micro-entry validation). Scope says whose
// accounts an operation addresses, CustomerScope or PlatformScope; an
// external account of the other scope is not found, so neither set of
// routes reaches the other's external accounts.
//
// # Rules
//
//   - Variants is the table of every accountType: the currency
//     it holds, its accountInfo members, whether it needs a beneficiary and
//     the rails it reaches. CheckInfo validates an accountInfo against it
//     and the reference's member shapes, reporting every problem, and tells
//     identifier problems (checksums and formats of IBANs, routing numbers,
//     CLABEs, BICs, wallet addresses, Lightning invoices, ...) apart from
//     structural ones, so that a typo in a number answers
//     INVALID_BANK_ACCOUNT and a missing member INVALID_INPUT. With
//     Options.SkipCheckDigits an identifier that fails only its checksum
//     passes, as the hosted sandbox's test data needs.
//   - An owner holds at most one external account per identifier (type,
//     identifier and routing number): DUPLICATE_EXTERNAL_ACCOUNT.
//   - A first-party self-custody wallet on a chain whose signatures the
//     engine verifies (EVM, Solana, Spark) starts
//     PENDING_OWNERSHIP_VERIFICATION and may receive at most
//     OwnershipThreshold major units until its holder proves ownership by
//     signature or by a liveness check. UsableDestination
//     decides whether an amount may go to an external account now.
//   - In SCA regions a customer trusts a beneficiary by one-time code
//     (StartTrust, ConfirmTrust), and a trusted beneficiary cannot be
//     deleted before it is untrusted.
//   - A customer has at most one default UMA deposit account: a new
//     default takes over.
//   - The double-entry rules (Posting, Transfer, Reverse, CheckBalanced)
//     live in package money, where the kernel posts without importing an
//     area; this package keeps their names (ledger.go).
//
// # How operations run
//
// Every write operation is one store transaction run by engine.Once:
// records, index entries, ledger postings, events, intents and, on a
// handle made by payments.Engine.WithIdempotency, the idempotency record
// with the answer commit together or not at all; a retry with the same key
// and request replays the answer, another request under the key is
// CONFLICT. Reads run in one read transaction each.
//
// CreateExternal validates the whole input first (every problem at once)
// and asks the Rail's CheckAccount (beneficiary-name verification,
// micro-entry validation) before its transaction, on the account as it
// will be stored; the transaction only records the answer. A trust
// challenge draws its code before the transaction too, and the code goes
// out after commit as an intent, to the CodeSender of package customers.
// A LIVENESS ownership check is due work, applied per
// item in its own transaction when it comes due (the sandbox passes every
// check after LivenessDelay), retried with backoff and finally parked in
// the dead letters. This area hands nothing to the rail itself: payouts
// are the quotes area's, which reads the accounts through the functions
// below.
//
// # Events
//
// INTERNAL_ACCOUNT.BALANCE_UPDATED when the sandbox funds an account (the
// quotes area emits it for payments, encoded by AppendView), and
// EXTERNAL_ACCOUNT.STATUS_UPDATED when an ownership proof changes a
// wallet's status (the constants and their decoders InternalAccountOf and
// ExternalAccountOf are in events.go).
//
// # Ports and hooks
//
// The area's port is the Rail's CheckAccount (Options.Rail, from
// payments.Config.Rail; nil is rails.Default, which checks nothing).
// Options.SkipCheckDigits comes from payments.Config.SkipCheckDigits. The
// area declares no hooks: it serves those of the areas below, whose
// OpenAccounts hooks payments.New wires to OpenInternal, and it uses
// package customers directly for codes (customers.IntendCode) and SCA
// (customers.KYC).
//
// # Functions for other areas
//
// The areas above call these inside their own transactions (*engine.Txn);
// they read and write through the caller's transaction and commit with it:
//
//   - OpenInternal opens an owner's internal accounts (customers' and the
//     platform's hooks, wallets); Internal, Primary and SharedInternal
//     load one (ACCOUNT_NOT_FOUND).
//   - External, ExternalRecordOf and SharedExternal load an external
//     account (ACCOUNT_NOT_FOUND); UsableDestination checks it as a payout
//     destination; DefaultDepositAccount finds a customer's default UMA
//     deposit account (quotes).
//   - View, ViewJSON and AppendView build an internal account's view with
//     its balances; AmountOf, FundingInstructions and DepositReference its
//     parts; AppendExternalAccount, AppendCurrencyAmount and ReadAmount
//     are the hand-written codecs that the quotes area's transactions and
//     rail intents embed.
//   - InsertExternal stores an external account as given, for the engine's
//     test fixtures.
//
// # Use
//
// Through the root facade, where payments.Accounts is this package's
// Service (the sandbox package's Example pays out to an external account):
//
//	page, err := eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: c.ID},
//		payments.CustomerScope, payments.ListParams{})
//	usd := page.Data[0].ID
//	_, err = eng.Sandbox.Fund(ctx, usd, 50_000) // sandbox engines only
//	ext, err := eng.Accounts.CreateExternal(ctx, payments.ExternalAccountInput{CustomerID: c.ID,
//		Currency: "USD", AccountInfo: payments.USBankAccount{AccountNumber: "123456003",
//			RoutingNumber: "021000021", Beneficiary: &payments.Beneficiary{
//				Type: payments.BeneficiaryIndividual, FullName: "Jane Doe"}}.AccountInfo()},
//		payments.CustomerScope)
//
// The accountInfo of the types created most has a typed value
// (account_details.go: USBankAccount, IBANAccount, UKBankAccount,
// CLABEAccount, PIXAccount, UPIAccount, CryptoWallet, LightningAccount);
// any accountType may still be given as raw JSON, as the reference writes
// it:
//
//	AccountInfo: []byte(`{"accountType":"USD_ACCOUNT","accountNumber":"123456003",
//		"routingNumber":"021000021","beneficiary":{"beneficiaryType":"INDIVIDUAL","fullName":"Jane Doe"}}`)
package accounts
