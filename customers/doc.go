// Package customers is the customers area: the platform's customers
// (individuals and businesses) and their verification (KYC for
// individuals, KYB for businesses, with documents and beneficial owners),
// the check of their email and phone by one-time code, bulk import from
// CSV, the provider's end-user terms, and Strong Customer Authentication
// (factors, login sessions, security events and 2FA resets).
//
// The package owns the area's vocabulary (Customer, CustomerInput,
// Profile, Verification, Document, BeneficialOwner, BulkJob and the SCA
// requests and answers), its pure rules, callable without a store (profile
// validation, the packet requirements, the status machine, the login
// lockout, send limits and TOTP), and the operations the facade exposes as
// eng.Customers (Service), eng.Documents (Documents) and eng.SCA (SCA,
// joined there with the quotes' authorizations).
//
// # Status and the rules around it
//
// A customer's verification status (kycStatus for individuals, kybStatus
// for businesses; one enum, Status) moves as Status.Check allows:
// UNVERIFIED, PENDING and HOLD move among themselves and to a decision, and
// APPROVED and REJECTED are final. The status changes
// through verification only: Update refuses kycStatus, and only a
// regulated platform, which verifies its own customers, may set it at
// creation. A REJECTED or HOLD customer still receives money but cannot
// send it (Status.MaySend, Sending).
//
// On an unregulated platform a customer must accept the provider's
// end-user terms (an AgreementConsents entry of type
// PROVIDER_END_USER_TERMS naming one of EndUserTermsVersions) before money
// moves for it: its internal accounts are opened by the create or update
// that records the consent, and Transacting answers
// END_USER_TERMS_NOT_ACCEPTED until then. A regulated platform opens them
// at creation.
//
// platformCustomerId and umaAddress are unique among the customers that
// are not deleted (CONFLICT and UMA_ADDRESS_EXISTS). Delete frees both and
// keeps the record, marked isDeleted, for the payments that name it.
//
// # Verification
//
// SubmitVerification gathers the packet (the profile, the types of the
// documents uploaded, a business's beneficial owners), lists what it lacks
// (IndividualProblems, BusinessProblems) and asks the
// KYCProvider to decide. The decision is recorded as a Verification with
// its errors, and the customer's status (and a business's owners') moves
// as the provider says. A customer whose provider checks contact details
// (KYCProvider.ContactChecks) must confirm its email and phone by code
// first (SendContactCode, ConfirmContactCode). Documents are evidence: a
// customer's documents can no longer be deleted once it left UNVERIFIED.
//
// # Strong Customer Authentication
//
// For customers in regions that apply SCA (KYCProvider.SCARequired; every
// SCA operation answers CONFLICT for the others) the SCA group enrolls TOTP
// and passkey factors beside the SMS code every such customer has, opens
// login sessions, counts failed logins towards a lockout (LoginSecurity:
// locked from the fifth failure, suspended from the ninth until a password
// reset) and recovers a lost factor through a 2FA reset gated by a
// liveness check. A per-transaction challenge uses ChallengeFactors only: a
// TOTP code cannot be linked to the payment it approves.
//
// # How operations run
//
// Every write operation is one store transaction run by engine.Once: the
// records, their index entries, the events and intents the change implies
// and, on a handle made by payments.Engine.WithIdempotency, the idempotency
// record with the answer commit together or not at all. A retry with the
// same key and request replays the answer, even after a crash; another
// request under the key is CONFLICT. Invalid input is reported field by
// field in one INVALID_INPUT. Reads run in one read transaction each.
//
// What may block is asked before the write transaction: the KYCProvider's
// InitialStatus (Create, bulk import) and Review (SubmitVerification) run
// on what a read transaction found, and one-time codes, WebAuthn
// challenges and TOTP secrets are drawn beforehand too, so a store may run
// the transaction function more than once. Only the provider's pure
// answers about a customer (ContactChecks, SCARequired) are asked inside.
// Because the world may have changed meanwhile, SubmitVerification applies
// a review only if the packet is still the one reviewed, and otherwise
// reviews again (three tries, then CONFLICT).
//
// Inside the transaction the pure rules of this package decide and
// everything they imply is written. One-time codes leave as intents: the
// transaction keeps the code's hash on the record it authorizes and an
// intent holding the plain code, and after commit the intent worker hands
// the code to the CodeSender, at least once, with backoff, finally parking
// it in the dead letters. An operation that must record a failure (a wrong
// code counted, a spent code deleted, a failed login) commits that write
// and answers the failure (engine.Keep), which a retry replays.
//
// Bulk import is due work applied per item: Import stores the job with its
// rows in one transaction; then every pass of the due-work worker creates
// up to five batches of 100 rows of each job, each batch in one
// transaction with the job's progress. A refused row is recorded in the
// job and writes nothing; a batch that fails on the store or the provider
// is retried with backoff and then parked in the dead letters, holding up
// no other job and no other due item.
//
// # Events
//
// Written to the outbox in the transaction of the change and delivered
// after commit: CUSTOMER.KYC_PENDING, CUSTOMER.KYC_APPROVED and
// CUSTOMER.KYC_REJECTED (KYB_ for businesses) when a verification moves
// the status there; VERIFICATION.<status> for every submission; and
// BULK_UPLOAD.COMPLETED or BULK_UPLOAD.FAILED when an import ends.
// events.go names each type (EventCustomerKYCApproved, ...) and decodes
// the data (CustomerOf, VerificationOf, BulkJobOf).
//
// # Ports and hooks
//
// KYCProvider decides verifications, says which customers need contact
// checks and SCA, and draws one-time codes; CodeSender delivers the codes.
// The embedding program sets them as payments.Config.KYC and
// payments.Config.Codes; nil gives the defaults documented on each.
//
// Options also carries the hooks of the areas above, which this package
// cannot import: OpenAccounts (accounts.OpenInternal) opens a customer's
// internal accounts, ProvisionWallet (wallets.Provision) its embedded
// wallet, and ContactChanged (wallets) moves the wallet credentials tied to
// a changed email or phone.
//
// # Functions for other areas
//
// The areas above call these inside their own transactions (*engine.Txn);
// they read and write through the caller's transaction and commit with it:
//
//   - Get, RecordOf and Live load a customer (CUSTOMER_NOT_FOUND; Live also
//     CUSTOMER_DELETED); ByUma finds one by UMA address (UMA_NOT_FOUND).
//   - Transacting loads a customer that money may move for now, Sending
//     one that may also send it (quotes, agents).
//   - UpdateRecord applies a customer update with a hook for signed flows
//     (wallets); Currencies lists the currencies a customer holds accounts
//     in.
//   - IntendCode queues a one-time code for delivery after commit, and KYC
//     returns the engine's KYCProvider (the payout challenges of quotes and
//     the beneficiary trust of accounts).
//   - ForSCA, SCAState, SaveSCA, CheckProof, ProofFailed, ProofField,
//     ChallengeFactor, AssertionOptions and RelyingParty let the quotes
//     area challenge a payout with the customer's SCA factors, with the
//     pure rules SendWait, Recent, RateLimited and LockedError.
//   - Insert stores a customer as given, for the engine's test fixtures.
//
// # Use
//
// Through the root facade (the root's Example_onboardIndividual runs the
// whole path):
//
//	eng, err := payments.New(payments.Config{Store: memstore.New(), KYC: sandbox.KYC{}, Sandbox: true})
//	if err != nil { ... }
//	defer eng.Close()
//	c, err := eng.Customers.Create(ctx, payments.CustomerInput{
//		CustomerType: payments.CustomerIndividual,
//		Identifier:   "123-45-6789",
//		Profile: customers.Profile{FullName: "Jane Doe", BirthDate: "1990-01-15",
//			Nationality: "US", IDType: "SSN", Address: &customers.Address{...}},
//		AgreementConsents: []payments.AgreementConsent{{Type: payments.AgreementProviderEndUserTerms, ...}},
//	})
//	_, err = eng.Documents.Upload(ctx, payments.DocumentUpload{DocumentHolder: c.ID,
//		DocumentType: "PASSPORT", Country: "US", Content: scan})
//	v, err := eng.Customers.SubmitVerification(ctx, c.ID)
package customers
