package customers

import (
	"context"
	"iter"
	"strings"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/validate"
)

// tableBeneficialOwners holds owners by id, listed by customer through
// the engine.IxCustomer index that Area declares.
const tableBeneficialOwners = "beneficial_owners"

// OwnerPersonalInfo identifies a beneficial owner (reference
// BeneficialOwnerPersonalInfo). Identifier is write-only.
type OwnerPersonalInfo struct {
	FirstName         string   `json:"firstName,omitempty"`
	MiddleName        string   `json:"middleName,omitempty"`
	LastName          string   `json:"lastName,omitempty"`
	BirthDate         string   `json:"birthDate,omitempty"`
	Nationality       string   `json:"nationality,omitempty"`
	Email             string   `json:"email,omitempty"`
	PhoneNumber       string   `json:"phoneNumber,omitempty"`
	Address           *Address `json:"address,omitempty"`
	IDType            string   `json:"idType,omitempty"`
	Identifier        string   `json:"identifier,omitempty"`
	CountryOfIssuance string   `json:"countryOfIssuance,omitempty"`
}

// BeneficialOwner is a person who owns or controls a business customer.
// Its KYCStatus is decided with its business's verification
// (KYCDecision.OwnerStatuses). Every view masks PersonalInfo.Identifier to
// its last four characters.
type BeneficialOwner struct {
	ID                  string            `json:"id"`
	CustomerID          string            `json:"customerId"`
	Roles               []string          `json:"roles"`
	OwnershipPercentage int               `json:"ownershipPercentage"`
	PersonalInfo        OwnerPersonalInfo `json:"personalInfo"`
	KYCStatus           KYCStatus         `json:"kycStatus"`
	CreatedAt           time.Time         `json:"createdAt"`
	UpdatedAt           time.Time         `json:"updatedAt"`
}

// OwnerRoles are the reference's BeneficialOwnerRole values.
var OwnerRoles = []string{"UBO", "DIRECTOR", "COMPANY_OFFICER", "CONTROL_PERSON", "TRUSTEE", "GENERAL_PARTNER"}

// OwnerInput creates or (members left zero keep their values) updates a
// beneficial owner. OwnershipPercentage is a pointer so that 0 can be set.
type OwnerInput struct {
	CustomerID          string            `json:"customerId,omitempty"`
	Roles               []string          `json:"roles,omitempty"`
	OwnershipPercentage *int              `json:"ownershipPercentage,omitempty"`
	PersonalInfo        OwnerPersonalInfo `json:"personalInfo"`
}

// CreateBeneficialOwner adds an owner to a business customer. The owner
// starts UNVERIFIED and is resolved with its business.
// Errors: INVALID_INPUT (a missing customer id, a customer that is not a
// business, and every invalid member at once), CUSTOMER_NOT_FOUND,
// CUSTOMER_DELETED.
func (cs Service) CreateBeneficialOwner(ctx context.Context, in OwnerInput) (*BeneficialOwner, error) {
	return engine.Run(ctx, cs.e, createOwner, in)
}

// createOwner is Service.CreateBeneficialOwner's operation.
var createOwner = engine.Op[OwnerInput, *BeneficialOwner, struct{}]{Area: "customers", Name: "CreateBeneficialOwner",
	Decide: func(t *engine.Txn, in *OwnerInput, _ *struct{}) (*BeneficialOwner, error) {
		var fe validate.Errors
		if !fe.Required("customerId", in.CustomerID) {
			return nil, engine.Invalid(fe)
		}
		c, err := Live(t, in.CustomerID)
		if err != nil {
			return nil, err
		}
		if c.CustomerType != CustomerBusiness {
			fe.Add("customerId", nil, "beneficial owners belong to BUSINESS customers; %s is %s", c.ID, c.CustomerType)
		}
		id := t.NewID("BeneficialOwner")
		o := &BeneficialOwner{ID: id, CustomerID: c.ID, KYCStatus: KYCUnverified, CreatedAt: t.Now, UpdatedAt: t.Now}
		if err := applyOwner(t.Handle, fe, o, *in); err != nil {
			return nil, err
		}
		if err := engine.InsertJSON(t, tableBeneficialOwners, id, o); err != nil {
			return nil, err
		}
		return o.view(), nil
	}}

// UpdateBeneficialOwner changes the members set in in; the owner stays
// with its customer (another customerId is INVALID_INPUT). The merged owner
// is validated as a whole. NOT_FOUND for an unknown owner.
func (cs Service) UpdateBeneficialOwner(ctx context.Context, id string, in OwnerInput) (*BeneficialOwner, error) {
	return engine.Run(ctx, cs.e, updateOwner, ownerUpdate{id, in})
}

// ownerUpdate is an UpdateBeneficialOwner request.
type ownerUpdate struct {
	id string
	in OwnerInput
}

// updateOwner is Service.UpdateBeneficialOwner's operation.
var updateOwner = engine.Op[ownerUpdate, *BeneficialOwner, struct{}]{Area: "customers", Name: "UpdateBeneficialOwner",
	Fingerprint: func(u *ownerUpdate) any { return []any{u.id, u.in} },
	Decide: func(t *engine.Txn, u *ownerUpdate, _ *struct{}) (*BeneficialOwner, error) {
		o, err := owner(t, u.id)
		if err != nil {
			return nil, err
		}
		var fe validate.Errors
		if u.in.CustomerID != "" && u.in.CustomerID != o.CustomerID {
			fe.Add("customerId", nil, "an owner cannot move to another customer")
		}
		if err := applyOwner(t.Handle, fe, o, u.in); err != nil {
			return nil, err
		}
		o.UpdatedAt = t.Now
		if err := engine.PutJSON(t, tableBeneficialOwners, u.id, o); err != nil {
			return nil, err
		}
		return o.view(), nil
	}}

// applyOwner merges in onto o and validates the result: roles, a
// percentage in [0, 100], the identity members verification needs, and an
// SSN or ITIN identifier. fe holds the caller's problems so far; the
// answer is INVALID_INPUT with all of them, or nil.
func applyOwner(e *engine.Handle, fe validate.Errors, o *BeneficialOwner, in OwnerInput) error {
	if in.Roles != nil {
		o.Roles = in.Roles
	}
	if in.OwnershipPercentage != nil {
		o.OwnershipPercentage = *in.OwnershipPercentage
	}
	pi := &o.PersonalInfo
	pinfo := in.PersonalInfo
	if pinfo.Address != nil {
		pi.Address = pinfo.Address
	}
	for _, m := range []struct{ dst, src *string }{{&pi.FirstName, &pinfo.FirstName}, {&pi.MiddleName, &pinfo.MiddleName},
		{&pi.LastName, &pinfo.LastName}, {&pi.BirthDate, &pinfo.BirthDate}, {&pi.Nationality, &pinfo.Nationality},
		{&pi.Email, &pinfo.Email}, {&pi.PhoneNumber, &pinfo.PhoneNumber}, {&pi.IDType, &pinfo.IDType},
		{&pi.Identifier, &pinfo.Identifier}, {&pi.CountryOfIssuance, &pinfo.CountryOfIssuance}} {
		if *m.src != "" {
			*m.dst = *m.src
		}
	}
	if len(o.Roles) == 0 {
		fe.Add("roles", &validate.Constraint{Enum: OwnerRoles}, "roles must list at least one role")
	}
	for i, r := range o.Roles {
		fe.Enum(validate.Index("roles", i), r, OwnerRoles...)
	}
	if o.OwnershipPercentage < 0 || o.OwnershipPercentage > 100 {
		fe.Add("ownershipPercentage", nil, "ownershipPercentage must be between 0 and 100")
	}
	const p = "personalInfo."
	for _, f := range [][2]string{{"firstName", pi.FirstName}, {"lastName", pi.LastName}, {"birthDate", pi.BirthDate},
		{"nationality", pi.Nationality}, {"idType", pi.IDType}, {"identifier", pi.Identifier}} {
		fe.Required(p+f[0], f[1])
	}
	if pi.Address == nil {
		fe.Missing(p + "address")
	}
	ValidateBirthDate(&fe, p+"birthDate", pi.BirthDate, e.Now())
	fe.Country(p+"nationality", pi.Nationality)
	fe.Email(p+"email", pi.Email)
	fe.Phone(p+"phoneNumber", pi.PhoneNumber)
	ValidateAddress(&fe, p+"address", pi.Address)
	ValidateIdentifier(&fe, p, pi.IDType, pi.Identifier, pi.CountryOfIssuance)
	return engine.Invalid(fe.Err())
}

// view masks the identifier to its last four characters (the reference
// requires the member; the full number is never shown again).
func (o *BeneficialOwner) view() *BeneficialOwner {
	c := *o
	if id := c.PersonalInfo.Identifier; len(id) > 4 {
		c.PersonalInfo.Identifier = strings.Repeat("*", len(id)-4) + id[len(id)-4:]
	}
	return &c
}

// owner loads an owner as stored (identifier in full): NOT_FOUND when
// absent.
func owner(t *engine.Txn, id string) (*BeneficialOwner, error) {
	var o BeneficialOwner
	if err := engine.GetJSON(t, tableBeneficialOwners, id, &o); err != nil {
		return nil, engine.NotFound(err, engine.CodeNotFound, "beneficial owner", id)
	}
	return &o, nil
}

// ownersOf returns a business's owners (identifiers hidden), oldest first:
// the first engine.MaxLimit of them.
func ownersOf(t *engine.Txn, customerID string) ([]BeneficialOwner, error) {
	page, err := engine.List(t, ownersQuery(customerID), engine.ListParams{Limit: engine.MaxLimit})
	for i := range page.Data {
		page.Data[i] = *page.Data[i].view()
	}
	return page.Data, err
}

// ownersQuery lists a business's owners.
func ownersQuery(customerID string) engine.ListQuery[BeneficialOwner] {
	return engine.ListQuery[BeneficialOwner]{Table: tableBeneficialOwners, Index: ixCustomer, Value: customerID}
}

// BeneficialOwner returns one owner, identifier masked: NOT_FOUND for an
// unknown id.
func (cs Service) BeneficialOwner(ctx context.Context, id string) (*BeneficialOwner, error) {
	return engine.Run(ctx, cs.e, getOwner, id)
}

// getOwner is Service.BeneficialOwner's operation.
var getOwner = engine.Op[string, *BeneficialOwner, struct{}]{Area: "customers", Name: "BeneficialOwner", Access: engine.Read,
	Decide: func(t *engine.Txn, id *string, _ *struct{}) (*BeneficialOwner, error) {
		o, err := owner(t, *id)
		if err != nil {
			return nil, err
		}
		return o.view(), nil
	}}

// ListBeneficialOwners lists the owners of a customer, oldest first,
// identifiers masked. The customer id is required (INVALID_INPUT); an
// unknown customer has none.
func (cs Service) ListBeneficialOwners(ctx context.Context, customerID string, p engine.ListParams) (engine.Page[BeneficialOwner], error) {
	return engine.Run(ctx, cs.e, listOwners, ownerQuery{customerID, p})
}

// ownerQuery is a ListBeneficialOwners request.
type ownerQuery struct {
	customerID string
	p          engine.ListParams
}

// listOwners is Service.ListBeneficialOwners's operation.
var listOwners = engine.Op[ownerQuery, engine.Page[BeneficialOwner], struct{}]{Area: "customers", Name: "ListBeneficialOwners", Access: engine.Read,
	Validate: func(in *ownerQuery) error {
		var fe validate.Errors
		if in.customerID == "" {
			fe.Missing("customerId")
		}
		return engine.Invalid(fe.Err())
	},
	Decide: func(t *engine.Txn, in *ownerQuery, _ *struct{}) (engine.Page[BeneficialOwner], error) {
		page, err := engine.List(t, ownersQuery(in.customerID), in.p)
		for i := range page.Data {
			page.Data[i] = *page.Data[i].view()
		}
		return page, err
	}}

// ListBeneficialOwnersAll walks every page of ListBeneficialOwners from p on (engine.All):
// each item with a nil error, or one pair with a page's error; breaking
// out of the loop reads no further page.
func (cs Service) ListBeneficialOwnersAll(ctx context.Context, customerID string, p engine.ListParams) iter.Seq2[BeneficialOwner, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[BeneficialOwner], error) {
		return cs.ListBeneficialOwners(ctx, customerID, p)
	})
}
