package customers

import (
	"bytes"
	"context"
	"encoding/json"
	"iter"
	"slices"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/platform"
	"github.com/paygrid/payments/validate"
)

// Verification tables: submissions by id, listed by customer and by
// status through the indexes Area declares.
const tableVerifications = "verifications"

// VerificationStatus is the outcome of a verification submission, as the
// KYCProvider decided it (KYCDecision.Status). It is separate from the
// customer's Status: RESOLVE_ERRORS, for example, leaves the customer as
// it was.
type VerificationStatus string

// Verification statuses (reference VerificationStatus).
const (
	VerificationResolveErrors        VerificationStatus = "RESOLVE_ERRORS"
	VerificationPendingManualReview  VerificationStatus = "PENDING_MANUAL_REVIEW"
	VerificationInProgress           VerificationStatus = "IN_PROGRESS"
	VerificationApproved             VerificationStatus = "APPROVED"
	VerificationRejected             VerificationStatus = "REJECTED"
	VerificationReadyForVerification VerificationStatus = "READY_FOR_VERIFICATION"
)

// VerificationError is one problem of a submission, on the customer or one
// of its beneficial owners (ResourceID).
type VerificationError struct {
	ResourceID string `json:"resourceId"`
	Problem
}

// Verification is one KYC/KYB submission and its outcome. It is written
// once, by the submission, and never changes: a later decision is a new
// submission.
type Verification struct {
	ID                 string              `json:"id"`
	CustomerID         string              `json:"customerId"`
	VerificationStatus VerificationStatus  `json:"verificationStatus"`
	Errors             []VerificationError `json:"errors"`
	CreatedAt          time.Time           `json:"createdAt"`
	UpdatedAt          time.Time           `json:"updatedAt"`
}

// SubmitVerification submits a customer for KYC (individuals) or KYB
// (businesses). The engine checks the packet (profile fields, identity or business documents, beneficial owners) and the KYC
// provider decides. A customer whose status is final answers INVALID_INPUT
// (APPROVED and REJECTED are final); one with unverified contact details
// CONFLICT.
// Status changes emit CUSTOMER.KYC_* / KYB_* and every submission a
// VERIFICATION.<status> event.
//
// The provider is consulted before the transaction, on the packet as it
// stood; the transaction applies its decision only if the packet is still
// the same, and otherwise the review runs again (a few times, then
// CONFLICT). Other errors: INVALID_INPUT without a customer id,
// CUSTOMER_NOT_FOUND, CUSTOMER_DELETED, and the provider's own errors as
// they are. A decision that moves the status where Status.Check forbids is
// the provider's fault and fails the operation, writing nothing.
func (cs Service) SubmitVerification(ctx context.Context, customerID string) (*Verification, error) {
	return engine.Run(ctx, cs.e, submitVerification, customerID)
}

// review is what SubmitVerification gathers before its transaction: the
// packet the provider reviewed, by its encoding, and its decision.
type review struct {
	packet   []byte
	decision KYCDecision
}

// submitVerification is Service.SubmitVerification's operation. The
// packet is compared by its encoding: any change to the profile,
// documents or owners between the review and the write sends the packet
// back to the provider (engine.Missing), a bounded number of times.
var submitVerification = engine.Op[string, *Verification, review]{Area: "customers", Name: "SubmitVerification",
	Validate: func(customerID *string) error {
		var fe validate.Errors
		fe.Required("customerId", *customerID)
		return engine.Invalid(fe.Err())
	},
	Prefetch: func(ctx context.Context, e *engine.Handle, customerID *string, rv *review, _ error) error {
		var sub *KYCSubmission
		err := e.View(ctx, func(t *engine.Txn) error {
			var err error
			_, sub, err = verificationTarget(t, *customerID)
			return err
		})
		if err != nil {
			return err
		}
		rv.packet, _ = json.Marshal(sub)
		rv.decision, err = customersSlot.Of(e).KYC.Review(ctx, sub)
		return err
	},
	Decide: func(t *engine.Txn, customerID *string, rv *review) (*Verification, error) {
		r, sub, err := verificationTarget(t, *customerID)
		if err != nil {
			return nil, err
		}
		if now, _ := json.Marshal(sub); !bytes.Equal(now, rv.packet) {
			return nil, engine.Missing(errPacketChanged)
		}
		var out *Verification
		if err := applyReview(t, r, rv.decision, &out); err != nil {
			return nil, err
		}
		return out, nil
	},
}

// errPacketChanged refuses a review whose packet changed meanwhile.
var errPacketChanged = engine.Errorf(engine.CodeConflict, "the customer changed while its verification was under review; submit again")

// verificationTarget loads a customer that may be submitted, with its
// packet: INVALID_INPUT when its status is final, CONFLICT while a contact
// channel the provider checks is still PENDING.
func verificationTarget(t *engine.Txn, customerID string) (*Record, *KYCSubmission, error) {
	r, err := Live(t, customerID)
	if err != nil {
		return nil, nil, err
	}
	if r.Status().Final() {
		return nil, nil, engine.Errorf(engine.CodeInvalidInput, "customer %s is %s; a final verification status cannot be resubmitted", r.ID, r.Status())
	}
	if cv := r.ContactVerification; cv != nil && (cv.Email == ContactPending || cv.Phone == ContactPending) {
		return nil, nil, engine.Errorf(engine.CodeConflict, "customer %s must verify its email and phone before identity verification", r.ID)
	}
	p, err := platform.Load(t)
	if err != nil {
		return nil, nil, err
	}
	sub, err := packet(t, r, p)
	return r, sub, err
}

// applyReview records a provider's decision on r's submission: the
// Verification with the problems on the customer, the customer's new
// status and its event, the owners' statuses, and the VERIFICATION.<status>
// event. The owners are taken by id from the decision; a decision naming an
// unknown owner fails the operation.
func applyReview(t *engine.Txn, r *Record, d KYCDecision, out **Verification) error {
	id := t.NewID("Verification")
	v := &Verification{ID: id, CustomerID: r.ID, VerificationStatus: d.Status, Errors: []VerificationError{}, CreatedAt: t.Now, UpdatedAt: t.Now}
	for _, pr := range d.Problems {
		v.Errors = append(v.Errors, VerificationError{ResourceID: r.ID, Problem: pr})
	}
	r.ResolveErrorsSeen = r.ResolveErrorsSeen || d.Status == VerificationResolveErrors
	event, err := verificationEvent(v.VerificationStatus)
	if err != nil {
		return err
	}
	if err := t.Emit(event, v); err != nil {
		return err
	}
	if err := setCustomerStatus(t, r, d.CustomerStatus); err != nil {
		return err
	}
	for ownerID, s := range d.OwnerStatuses {
		o, err := owner(t, ownerID)
		if err != nil {
			return err
		}
		o.KYCStatus, o.UpdatedAt = s, t.Now
		if err := engine.PutJSON(t, tableBeneficialOwners, ownerID, o); err != nil {
			return err
		}
	}
	if err := engine.PutJSON(t, tableCustomers, r.ID, r); err != nil {
		return err
	}
	if err := engine.InsertJSON(t, tableVerifications, id, v); err != nil {
		return err
	}
	*out = v
	return nil
}

// packet gathers what the provider reviews: the customer and platform,
// the problems the requirement rules find, whether an earlier submission
// came back RESOLVE_ERRORS, and a business's owners.
func packet(t *engine.Txn, r *Record, p *platform.Config) (*KYCSubmission, error) {
	docs, err := documentTypes(t, r.ID)
	if err != nil {
		return nil, err
	}
	sub := &KYCSubmission{Customer: &r.Customer, Platform: p, Resubmission: r.ResolveErrorsSeen}
	if r.CustomerType == CustomerBusiness {
		if sub.Owners, err = ownersOf(t, r.ID); err != nil {
			return nil, err
		}
		sub.Problems = BusinessProblems(&r.Profile, docs, len(sub.Owners))
	} else {
		sub.Problems = IndividualProblems(&r.Profile, r.Identifier != "", docs)
	}
	return sub, nil
}

// setCustomerStatus changes a customer's kycStatus/kybStatus and emits the
// matching CUSTOMER.* event; no event when it stays the same, and none
// for a move to UNVERIFIED or HOLD. An empty s leaves the status alone.
func setCustomerStatus(t *engine.Txn, r *Record, s KYCStatus) error {
	if s == "" || s == r.Status() {
		return nil
	}
	if err := r.Status().Check(s); err != nil {
		return err
	}
	r.setStatus(s)
	r.UpdatedAt = t.Now
	event, ok := statusEvents[r.CustomerType == CustomerBusiness][s]
	if !ok {
		return nil
	}
	view, err := customerView(t, r)
	if err != nil {
		return err
	}
	return t.Emit(event, view)
}

// Verification returns one submission: VERIFICATION_NOT_FOUND for an
// unknown id.
func (cs Service) Verification(ctx context.Context, id string) (*Verification, error) {
	return engine.Run(ctx, cs.e, getVerification, id)
}

// getVerification is Service.Verification's operation.
var getVerification = engine.Op[string, *Verification, struct{}]{Area: "customers", Name: "Verification", Access: engine.Read,
	Decide: func(t *engine.Txn, id *string, _ *struct{}) (*Verification, error) {
		var v Verification
		if err := engine.GetJSON(t, tableVerifications, *id, &v); err != nil {
			return nil, engine.NotFound(err, CodeVerificationNotFound, "verification", *id)
		}
		return &v, nil
	}}

// ListVerifications lists submissions, oldest first, narrowed by customer
// and status when given. An unknown status, or a malformed cursor or
// limit, is INVALID_INPUT; an unknown customer simply has none.
func (cs Service) ListVerifications(ctx context.Context, customerID string, status VerificationStatus, p engine.ListParams) (engine.Page[Verification], error) {
	return engine.Run(ctx, cs.e, listVerifications, verificationQuery{customerID, status, p})
}

// verificationQuery is a ListVerifications request.
type verificationQuery struct {
	customerID string
	status     VerificationStatus
	p          engine.ListParams
}

// listVerifications is Service.ListVerifications's operation.
var listVerifications = engine.Op[verificationQuery, engine.Page[Verification], struct{}]{Area: "customers", Name: "ListVerifications", Access: engine.Read,
	Validate: func(in *verificationQuery) error {
		var fe validate.Errors
		fe.Enum("verificationStatus", string(in.status), "RESOLVE_ERRORS", "PENDING_MANUAL_REVIEW", "IN_PROGRESS", "APPROVED", "REJECTED", "READY_FOR_VERIFICATION")
		return engine.Invalid(fe.Err())
	},
	Decide: func(t *engine.Txn, in *verificationQuery, _ *struct{}) (engine.Page[Verification], error) {
		customerID, status := in.customerID, in.status
		q := engine.ListQuery[Verification]{Table: tableVerifications, Index: engine.IxAll, Match: func(v *Verification) bool {
			return (customerID == "" || v.CustomerID == customerID) && (status == "" || v.VerificationStatus == status)
		}}
		return engine.List(t, q.Narrowest([2]string{ixCustomer, customerID}, [2]string{engine.IxStatus, string(status)}), in.p)
	}}

// ListVerificationsAll walks every page of ListVerifications from p on (engine.All):
// each item with a nil error, or one pair with a page's error; breaking
// out of the loop reads no further page.
func (cs Service) ListVerificationsAll(ctx context.Context, customerID string, status VerificationStatus, p engine.ListParams) iter.Seq2[Verification, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[Verification], error) {
		return cs.ListVerifications(ctx, customerID, status, p)
	})
}

// KYCLink is a hosted verification link (reference KycLinkResponse).
type KYCLink struct {
	KYCURL    string    `json:"kycUrl"`
	ExpiresAt time.Time `json:"expiresAt"`
	Provider  string    `json:"provider"`
	Token     string    `json:"token,omitempty"`
}

// CreateKYCLink returns a hosted-flow link for a customer whose status is
// not final; it expires after 24 hours. redirectURI, when set, must be an
// absolute http(s) URL (INVALID_INPUT). A final status is INVALID_INPUT, a
// pending contact check CONFLICT, an unknown or deleted customer
// CUSTOMER_NOT_FOUND or CUSTOMER_DELETED.
//
// The link is the sandbox's: it is made in a read transaction and stored
// nowhere, so each call returns a new one and none is remembered.
func (cs Service) CreateKYCLink(ctx context.Context, customerID, redirectURI string) (*KYCLink, error) {
	return engine.Run(ctx, cs.e, createKYCLink, kycLinkRequest{customerID, redirectURI})
}

// kycLinkRequest is a CreateKYCLink request.
type kycLinkRequest struct{ customerID, redirectURI string }

// createKYCLink is Service.CreateKYCLink's operation: it only reads.
var createKYCLink = engine.Op[kycLinkRequest, *KYCLink, struct{}]{Area: "customers", Name: "CreateKYCLink", Access: engine.Read,
	Decide: func(t *engine.Txn, in *kycLinkRequest, _ *struct{}) (*KYCLink, error) {
		var fe validate.Errors
		if in.redirectURI != "" {
			fe.URL("redirectUri", in.redirectURI)
		}
		if err := engine.Invalid(fe.Err()); err != nil {
			return nil, err
		}
		r, err := Live(t, in.customerID)
		if err != nil {
			return nil, err
		}
		if r.Status().Final() {
			return nil, engine.Errorf(engine.CodeInvalidInput, "customer %s is %s; there is nothing left to verify", r.ID, r.Status())
		}
		if cv := r.ContactVerification; cv != nil && slices.Contains([]string{cv.Email, cv.Phone}, ContactPending) {
			return nil, engine.Errorf(engine.CodeConflict, "customer %s must verify its email and phone first", r.ID)
		}
		tok := engine.RandomHex(16)
		return &KYCLink{KYCURL: "https://kyc.sandbox.uma.money/verify/" + tok, ExpiresAt: t.Now.Add(24 * time.Hour), Provider: "SUMSUB", Token: tok}, nil
	}}
