package customers

import (
	"fmt"

	"github.com/paygrid/payments/internal/engine"
)

// The webhook events of package customers (reference WebhookType).
const (
	// A customer's verification status moved to APPROVED, REJECTED or
	// PENDING (kycStatus of an individual: KYC_, kybStatus of a business:
	// KYB_); moves to UNVERIFIED and HOLD send none. The data is the
	// customer after the move (CustomerOf).
	EventCustomerKYCApproved engine.EventType = "CUSTOMER.KYC_APPROVED"
	EventCustomerKYCRejected engine.EventType = "CUSTOMER.KYC_REJECTED"
	EventCustomerKYCPending  engine.EventType = "CUSTOMER.KYC_PENDING"
	EventCustomerKYBApproved engine.EventType = "CUSTOMER.KYB_APPROVED"
	EventCustomerKYBRejected engine.EventType = "CUSTOMER.KYB_REJECTED"
	EventCustomerKYBPending  engine.EventType = "CUSTOMER.KYB_PENDING"

	// Every verification submission, by the status the KYCProvider
	// decided; the data is the Verification (VerificationOf).
	EventVerificationResolveErrors        engine.EventType = "VERIFICATION.RESOLVE_ERRORS"
	EventVerificationPendingManualReview  engine.EventType = "VERIFICATION.PENDING_MANUAL_REVIEW"
	EventVerificationInProgress           engine.EventType = "VERIFICATION.IN_PROGRESS"
	EventVerificationApproved             engine.EventType = "VERIFICATION.APPROVED"
	EventVerificationRejected             engine.EventType = "VERIFICATION.REJECTED"
	EventVerificationReadyForVerification engine.EventType = "VERIFICATION.READY_FOR_VERIFICATION"

	// A bulk import finished: COMPLETED, or FAILED when it had rows and
	// none succeeded. The data is the BulkJob (BulkJobOf).
	EventBulkUploadCompleted engine.EventType = "BULK_UPLOAD.COMPLETED"
	EventBulkUploadFailed    engine.EventType = "BULK_UPLOAD.FAILED"
)

// statusEvents are the CUSTOMER.* events by status, for individuals (KYC)
// and businesses (KYB): a status without one sends none.
var statusEvents = map[bool]map[Status]engine.EventType{
	false: {Approved: EventCustomerKYCApproved, Rejected: EventCustomerKYCRejected, Pending: EventCustomerKYCPending},
	true:  {Approved: EventCustomerKYBApproved, Rejected: EventCustomerKYBRejected, Pending: EventCustomerKYBPending},
}

// verificationEvents are the VERIFICATION.* events by verification status.
var verificationEvents = map[VerificationStatus]engine.EventType{
	VerificationResolveErrors:        EventVerificationResolveErrors,
	VerificationPendingManualReview:  EventVerificationPendingManualReview,
	VerificationInProgress:           EventVerificationInProgress,
	VerificationApproved:             EventVerificationApproved,
	VerificationRejected:             EventVerificationRejected,
	VerificationReadyForVerification: EventVerificationReadyForVerification,
}

// verificationEvent is the event announcing a submission decided s. A
// status outside VerificationStatus's values is the provider's mistake, a
// plain error (INTERNAL_ERROR) that writes nothing, as a refused status
// move is.
func verificationEvent(s VerificationStatus) (engine.EventType, error) {
	if ev, ok := verificationEvents[s]; ok {
		return ev, nil
	}
	return "", fmt.Errorf("customers: the KYC provider decided an unknown verification status %q", s)
}

// CustomerOf decodes the customer a CUSTOMER.KYC_* or CUSTOMER.KYB_* event
// carries; another event is INVALID_INPUT.
func CustomerOf(ev engine.Event) (*Customer, error) {
	return engine.DataOf[Customer](ev, EventCustomerKYCApproved, EventCustomerKYCRejected, EventCustomerKYCPending,
		EventCustomerKYBApproved, EventCustomerKYBRejected, EventCustomerKYBPending)
}

// VerificationOf decodes the verification a VERIFICATION.* event carries;
// another event is INVALID_INPUT.
func VerificationOf(ev engine.Event) (*Verification, error) {
	return engine.DataOf[Verification](ev, EventVerificationResolveErrors, EventVerificationPendingManualReview,
		EventVerificationInProgress, EventVerificationApproved, EventVerificationRejected, EventVerificationReadyForVerification)
}

// BulkJobOf decodes the job a BULK_UPLOAD.* event carries; another event is
// INVALID_INPUT.
func BulkJobOf(ev engine.Event) (*BulkJob, error) {
	return engine.DataOf[BulkJob](ev, EventBulkUploadCompleted, EventBulkUploadFailed)
}
