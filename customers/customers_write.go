package customers

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/platform"
	"github.com/paygrid/payments/validate"
)

// CustomerInput is the body of customer create and update. On update, the
// members left zero keep their stored values; nested profile objects merge
// member by member. Identifier is write-only; EndUserTermsConsent is the
// deprecated single-purpose form of an AgreementConsents entry of type
// PROVIDER_END_USER_TERMS (sending both is rejected).
type CustomerInput struct {
	// CustomerType is required on create and update, and never changes.
	CustomerType CustomerType `json:"customerType"`
	// PlatformCustomerID is the platform's own id of the customer, unique
	// among live customers; generated when absent on create.
	PlatformCustomerID string `json:"platformCustomerId,omitempty"`
	// Region is the customer's ISO 3166-1 country; the KYC provider reads
	// it for contact checks and SCA.
	Region string `json:"region,omitempty"`
	// Currencies are the currencies of the customer's internal accounts,
	// each supported by the platform; absent, all of the platform's.
	Currencies  []string `json:"currencies,omitempty"`
	Email       string   `json:"email,omitempty"`
	PhoneNumber string   `json:"phoneNumber,omitempty"`
	UmaAddress  string   `json:"umaAddress,omitempty"`
	// KYCStatus and KYBStatus may be set on create by a regulated
	// platform only; absent, the KYC provider chooses.
	KYCStatus KYCStatus `json:"kycStatus,omitempty"`
	KYBStatus KYCStatus `json:"kybStatus,omitempty"`
	Profile
	Identifier          string             `json:"identifier,omitempty"`
	AgreementConsents   []AgreementConsent `json:"agreementConsents,omitempty"`
	EndUserTermsConsent *AgreementConsent  `json:"endUserTermsConsent,omitempty"`
}

var (
	// UmaPattern is a UMA address: "$", a user part of 1 to 64 letters,
	// digits and ._+-, "@", and a lower-case domain. Create and Update
	// check customers' addresses against it, the quotes area invitations'.
	UmaPattern = regexp.MustCompile(`^\$[a-zA-Z0-9._+-]{1,64}@[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$`)
	// kycStatusEnum are the values a regulated platform may set at
	// creation.
	kycStatusEnum = []string{"UNVERIFIED", "PENDING", "APPROVED", "REJECTED", "HOLD"}
)

// Create creates an individual or business customer, opens its
// internal accounts (one per requested currency the platform supports, or
// per platform currency) and asks the KYC provider for its starting status.
// Every invalid field is reported at once in one INVALID_INPUT; a taken
// platformCustomerId is CONFLICT and a taken umaAddress UMA_ADDRESS_EXISTS;
// a consent naming an unknown terms version, when it is the only problem,
// END_USER_TERMS_VERSION_NOT_FOUND. An error of the provider is returned
// as it is, and nothing is written.
//
// Without a platformCustomerId the customer gets one derived from its id,
// and without a umaAddress "$<platformCustomerId>@<umaDomain>". On an
// unregulated platform the accounts open only with the terms' consent
// (see the package doc).
//
// The provider is consulted before the transaction, on the customer as the
// input describes it and the platform as it stands (a platform
// configuration changed in between is not noticed: it changes rarely, and
// the status is the provider's starting point, not a verification).
func (cs Service) Create(ctx context.Context, in CustomerInput) (*Customer, error) {
	return engine.Run(ctx, cs.e, createOp, in)
}

// createOp is Service.Create's operation: a repeated request is answered
// before the provider is asked again.
var createOp = engine.Op[CustomerInput, *Customer, KYCStatus]{Area: "customers", Name: "Create",
	Prefetch: initialStatus,
	Decide: func(t *engine.Txn, in *CustomerInput, initial *KYCStatus) (*Customer, error) {
		return createCustomer(t, *in, *initial)
	},
}

// initialStatus asks the KYC provider for the starting status of the
// customer in describes, outside every transaction: the platform is read
// in a read transaction first. Validation errors are ignored here and
// reported by the transaction.
func initialStatus(ctx context.Context, e *engine.Handle, in *CustomerInput, initial *KYCStatus, _ error) error {
	var p *platform.Config
	err := e.View(ctx, func(t *engine.Txn) error {
		var err error
		p, err = platform.Load(t)
		return err
	})
	if err != nil {
		return err
	}
	probe := &Record{Customer: Customer{CustomerType: in.CustomerType}}
	applyCustomerInput(e, &validate.Errors{}, probe, in, p)
	*initial, err = customersSlot.Of(e).KYC.InitialStatus(ctx, &probe.Customer, p)
	return err
}

// createCustomer creates the customer in describes inside t, starting at
// the provider's initial status unless in sets one. A refusal (a coded
// 4xx error) comes before anything is written, so a caller may go on in
// the same transaction: bulk import creates a batch of rows in one.
func createCustomer(t *engine.Txn, in CustomerInput, initial KYCStatus) (*Customer, error) {
	e := t.Handle
	p, err := platform.Load(t)
	if err != nil {
		return nil, err
	}
	id := t.NewID("Customer")
	r := &Record{Customer: Customer{ID: id, CustomerType: in.CustomerType, CreatedAt: t.Now, UpdatedAt: t.Now}}
	var fe validate.Errors
	if in.CustomerType == "" {
		fe.Missing("customerType")
	} else if !fe.Enum("customerType", string(in.CustomerType), "INDIVIDUAL", "BUSINESS") {
		return nil, engine.Invalid(fe)
	}
	applyCustomerInput(e, &fe, r, &in, p)
	if in.KYCStatus != "" || in.KYBStatus != "" {
		field, s := "kycStatus", in.KYCStatus
		if in.CustomerType == CustomerBusiness || in.KYBStatus != "" {
			field, s = "kybStatus", in.KYBStatus
		}
		if fe.Enum(field, string(s), kycStatusEnum...) && !p.IsRegulatedFinancialInstitution {
			fe.Add(field, nil, "%s can be set at creation only by a regulated platform; submit a verification instead", field)
		}
	}
	if err := finishCustomerInput(e, fe, r, &in); err != nil {
		return nil, err
	}
	// Generated identifiers come from the random part of the UUID, so
	// they are unique in practice; a clash is still caught by the claims.
	if r.PlatformCustomerID == "" {
		r.PlatformCustomerID = strings.ReplaceAll(strings.TrimPrefix(id, "Customer:"), "-", "")[:16]
	}
	if r.UmaAddress == "" {
		r.UmaAddress = "$" + r.PlatformCustomerID + "@" + p.UmaDomain
		// A platformCustomerId with characters a UMA address refuses
		// gets an address of its own.
		if !UmaPattern.MatchString(r.UmaAddress) {
			r.UmaAddress = "$c" + strings.ReplaceAll(strings.TrimPrefix(id, "Customer:"), "-", "")[:16] + "@" + p.UmaDomain
		}
	}
	status := in.KYCStatus
	if in.KYBStatus != "" {
		status = in.KYBStatus
	}
	if status == "" {
		status = initial
	}
	r.setStatus(status)
	if err := claimCustomerKeys(t, r, "", ""); err != nil {
		return nil, err
	}
	if err := engine.PutJSON(t, tableCustomers, id, r); err != nil {
		return nil, err
	}
	if err := provisionAccounts(t, r, p); err != nil {
		return nil, err
	}
	return &r.Customer, nil
}

// Update applies a partial update. customerType is required and must
// match the customer's; kycStatus and kybStatus cannot be sent (the status
// changes through verification only), and email and phone cannot both
// change in one request. Renaming never recomputes a verification status.
// Errors: INVALID_INPUT (every field at once), CUSTOMER_NOT_FOUND,
// CUSTOMER_DELETED, CONFLICT or UMA_ADDRESS_EXISTS for a taken identifier,
// END_USER_TERMS_VERSION_NOT_FOUND, and whatever the wallets' ContactChanged
// hook refuses. A changed email or phone that the provider checks is
// PENDING again; a recorded consent opens the accounts.
func (cs Service) Update(ctx context.Context, id string, in CustomerInput) (*Customer, error) {
	return engine.Run(ctx, cs.e, updateCustomer, customerUpdate{id, in})
}

// customerUpdate is an Update request: the customer's id and the changes.
type customerUpdate struct {
	id string
	in CustomerInput
}

// updateCustomer is Service.Update's operation.
var updateCustomer = engine.Op[customerUpdate, *Customer, struct{}]{Area: "customers", Name: "Update",
	Fingerprint: func(u *customerUpdate) any { return []any{u.id, u.in} },
	Decide: func(t *engine.Txn, u *customerUpdate, _ *struct{}) (*Customer, error) {
		return UpdateRecord(t, u.id, u.in, func(r *Record, oldEmail, oldPhone string) (bool, error) {
			return false, customersSlot.Of(t.Handle).ContactChanged(t, r, oldEmail, oldPhone, u.in)
		})
	}}

// Delete marks a customer deleted and returns it. Its UMA address and
// platformCustomerId become free; a second delete is CUSTOMER_DELETED, an
// unknown id CUSTOMER_NOT_FOUND. The record stays (isDeleted), and so do
// its accounts and their balances: the area closes nothing.
func (cs Service) Delete(ctx context.Context, id string) (*Customer, error) {
	return engine.Run(ctx, cs.e, deleteCustomer, id)
}

// deleteCustomer is Service.Delete's operation.
var deleteCustomer = engine.Op[string, *Customer, struct{}]{Area: "customers", Name: "Delete",
	Decide: func(t *engine.Txn, id *string, _ *struct{}) (*Customer, error) {
		r, err := Live(t, *id)
		if err != nil {
			return nil, err
		}
		for _, k := range [][2]string{{tableCustomerUma, r.UmaAddress}, {tableCustomerPlatformIDs, r.PlatformCustomerID}} {
			if err := t.Delete(k[0], k[1]); err != nil {
				return nil, err
			}
		}
		r.IsDeleted, r.UpdatedAt = true, t.Now
		if err := engine.PutJSON(t, tableCustomers, *id, r); err != nil {
			return nil, err
		}
		return customerView(t, r)
	}}

// applyCustomerInput copies the members set in in onto r and records every
// invalid one in fe. It validates the merged record, not the request, so an
// update that touches one member still reports a stored member that a rule
// now refuses. It also marks the contact channels the provider checks as
// PENDING, and requires their email or phone.
func applyCustomerInput(e *engine.Handle, fe *validate.Errors, r *Record, in *CustomerInput, p *platform.Config) {
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&r.PlatformCustomerID, in.PlatformCustomerID)
	set(&r.Region, in.Region)
	set(&r.UmaAddress, in.UmaAddress)
	set(&r.Identifier, in.Identifier)
	if in.Email != "" && in.Email != r.Email && r.ContactVerification != nil && r.ContactVerification.Email != "" {
		r.ContactVerification.Email = ContactPending
	}
	if in.PhoneNumber != "" && in.PhoneNumber != r.PhoneNumber && r.ContactVerification != nil && r.ContactVerification.Phone != "" {
		r.ContactVerification.Phone = ContactPending
	}
	set(&r.Email, in.Email)
	set(&r.PhoneNumber, in.PhoneNumber)
	if in.Currencies != nil {
		r.Currencies = in.Currencies
		if len(in.Currencies) == 0 {
			fe.Add("currencies", nil, "currencies must list at least one currency when present")
		}
		for i, c := range in.Currencies {
			if !slices.ContainsFunc(p.SupportedCurrencies, func(s platform.CurrencyConfig) bool { return s.CurrencyCode == c }) {
				fe.Add(validate.Index("currencies", i), nil, "currency %q is not supported by this platform", c)
			}
		}
	}
	// Empty lists are seen before the merge, which cannot tell them from
	// absent ones.
	in.Profile.EmptyLists(fe)
	r.Profile.Merge(in.Profile)
	fe.MaxLen("platformCustomerId", r.PlatformCustomerID, 255)
	fe.Country("region", r.Region)
	if fe.MaxLen("email", r.Email, MaxEmail) {
		fe.Email("email", r.Email)
	}
	fe.Phone("phoneNumber", r.PhoneNumber)
	fe.Match("umaAddress", r.UmaAddress, UmaPattern, "a UMA address such as $alice@example.com")
	if r.CustomerType == CustomerBusiness {
		r.Profile.ValidateBusiness(fe, e.Now())
		if in.Identifier != "" {
			fe.Add("identifier", nil, "identifier is only for INDIVIDUAL customers; use businessInfo.taxId")
		}
	} else {
		r.Profile.ValidateIndividual(fe, r.Identifier, e.Now())
	}
	email, phone := customersSlot.Of(e).KYC.ContactChecks(&r.Customer)
	if email || phone {
		if r.ContactVerification == nil {
			r.ContactVerification = &ContactVerification{}
		}
		if email && r.ContactVerification.Email == "" {
			r.ContactVerification.Email = ContactPending
		}
		if phone && r.ContactVerification.Phone == "" {
			r.ContactVerification.Phone = ContactPending
		}
		if email && r.Email == "" {
			fe.Add("email", nil, "email is required for customers in region %s, which verifies it before identity verification", r.Region)
		}
		if phone && r.PhoneNumber == "" {
			fe.Add("phoneNumber", nil, "phoneNumber is required for customers in region %s, which verifies it before identity verification", r.Region)
		}
	}
}

// finishCustomerInput validates and records the consents, then turns the
// collected field errors into the answer: INVALID_INPUT, or
// END_USER_TERMS_VERSION_NOT_FOUND when the only problem is the version.
func finishCustomerInput(e *engine.Handle, fe validate.Errors, r *Record, in *CustomerInput) error {
	consents := in.AgreementConsents
	if in.EndUserTermsConsent != nil {
		if in.AgreementConsents != nil {
			fe.Add("endUserTermsConsent", nil, "endUserTermsConsent is deprecated and cannot be sent together with agreementConsents")
		}
		c := *in.EndUserTermsConsent
		c.Type = AgreementProviderEndUserTerms
		consents = []AgreementConsent{c}
	}
	unknownVersion := checkConsents(&fe, consents, in.EndUserTermsConsent != nil)
	if err := engine.Invalid(fe.Err()); err != nil {
		return err
	}
	if unknownVersion != "" {
		var vf validate.Errors
		vf.Add(unknownVersion, &validate.Constraint{Enum: EndUserTermsVersions}, "termsVersion is not a version of the end-user terms; current is %s", CurrentEndUserTerms.Version)
		return engine.InvalidAs(CodeEndUserTermsVersionNotFound, vf)
	}
	for _, c := range consents {
		r.AgreementConsents = mergeConsent(r.AgreementConsents, c)
	}
	r.EndUserTermsConsent = nil
	for i := range r.AgreementConsents {
		if r.AgreementConsents[i].Type == AgreementProviderEndUserTerms {
			c := r.AgreementConsents[i]
			c.Type = ""
			r.EndUserTermsConsent = &c
		}
	}
	return nil
}

// claimCustomerKeys keeps the unique indexes in step with r, releasing the
// old values when they changed: CONFLICT for a taken platformCustomerId,
// UMA_ADDRESS_EXISTS for a taken umaAddress, each naming its field. Two
// concurrent creates that claim one value conflict in the store, and one
// of them is refused.
func claimCustomerKeys(t *engine.Txn, r *Record, oldUma, oldPID string) error {
	pidTaken := engine.Errorf(engine.CodeConflict, "an active customer already has platformCustomerId %s", r.PlatformCustomerID)
	pidTaken.Fields = []engine.FieldError{{Field: "platformCustomerId", Message: pidTaken.Message}}
	umaTaken := engine.Errorf(CodeUmaAddressExists, "UMA address %s is taken", r.UmaAddress)
	umaTaken.Fields = []engine.FieldError{{Field: "umaAddress", Message: umaTaken.Message}}
	// When both change, a taken UMA address is found before the identifier
	// is claimed, so that a refusal leaves nothing written (createCustomer).
	if r.PlatformCustomerID != oldPID && r.UmaAddress != oldUma {
		if _, err := t.Get(tableCustomerUma, r.UmaAddress); err == nil {
			if _, err := t.Get(tableCustomerPlatformIDs, r.PlatformCustomerID); err == nil {
				return pidTaken
			} else if !errors.Is(err, engine.ErrNotFound) {
				return err
			}
			return umaTaken
		} else if !errors.Is(err, engine.ErrNotFound) {
			return err
		}
	}
	// The platform's own identifier is claimed first: a generated UMA
	// address derives from it, so a taken platformCustomerId would otherwise
	// surface as a taken UMA address.
	if r.PlatformCustomerID != oldPID {
		if oldPID != "" {
			if err := t.Delete(tableCustomerPlatformIDs, oldPID); err != nil {
				return err
			}
		}
		if err := engine.Claim(t, tableCustomerPlatformIDs, r.PlatformCustomerID, r.ID, pidTaken); err != nil {
			return err
		}
	}
	if r.UmaAddress != oldUma {
		if oldUma != "" {
			if err := t.Delete(tableCustomerUma, oldUma); err != nil {
				return err
			}
		}
		return engine.Claim(t, tableCustomerUma, r.UmaAddress, r.ID, umaTaken)
	}
	return nil
}

// provisionAccounts opens the customer's internal accounts: at once on a
// regulated platform, and on an unregulated one only once the customer has
// accepted the end-user terms; the update that records
// the consent opens them. USDB is held in the embedded wallet (the Global
// Account), not in an internal account of its own. Both hooks skip what
// exists, so every update may call it again.
func provisionAccounts(t *engine.Txn, r *Record, p *platform.Config) error {
	if !p.IsRegulatedFinancialInstitution && r.EndUserTermsConsent == nil {
		return nil
	}
	cur := slices.DeleteFunc(slices.Clone(Currencies(r, p)), func(c string) bool { return c == GlobalAccountCurrency })
	st := customersSlot.Of(t.Handle)
	if err := st.OpenAccounts(t, r.ID, cur); err != nil {
		return err
	}
	return st.ProvisionWallet(t, r, p)
}

// Currencies are the currencies a customer gets internal accounts in: its
// own list, or else every currency the platform supports. The slice may be
// r's or p's own: callers must not change it.
func Currencies(r *Record, p *platform.Config) []string {
	if len(r.Currencies) > 0 {
		return r.Currencies
	}
	out := make([]string, 0, len(p.SupportedCurrencies))
	for _, c := range p.SupportedCurrencies {
		out = append(out, c.CurrencyCode)
	}
	return out
}

// GlobalAccountCurrency is the currency of the Global Account: a
// customer whose currencies include it holds it in an EMBEDDED_WALLET
// internal account instead of an INTERNAL_CRYPTO one.
const GlobalAccountCurrency = "USDB"
