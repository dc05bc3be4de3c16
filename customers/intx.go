package customers

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"slices"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/platform"
	"github.com/paygrid/payments/validate"
)

// The functions other areas call inside their own transactions
// (ARCHITECTURE.md: cross-area calls take the kernel's transaction). Each
// reads or writes this area's records the way its own operations do.

// Get loads a customer inside t, deleted ones included:
// CUSTOMER_NOT_FOUND when absent. The customer is the caller's own copy.
func Get(t *engine.Txn, id string) (*Customer, error) {
	r, err := RecordOf(t, id)
	if err != nil {
		return nil, err
	}
	return &r.Customer, nil
}

// RecordOf loads a customer as stored inside t, deleted ones included:
// CUSTOMER_NOT_FOUND when absent. A caller that changes it writes it back
// in the same transaction.
func RecordOf(t *engine.Txn, id string) (*Record, error) {
	var r Record
	if err := engine.GetJSON(t, tableCustomers, id, &r); err != nil {
		return nil, engine.NotFound(err, engine.CodeCustomerNotFound, "customer", id)
	}
	return &r, nil
}

// Live loads a customer that is not deleted, as stored:
// CUSTOMER_NOT_FOUND when absent, CUSTOMER_DELETED (410) when deleted.
// Every write to a customer starts here, so a deleted customer never
// changes again.
func Live(t *engine.Txn, id string) (*Record, error) {
	r, err := RecordOf(t, id)
	if err != nil {
		return nil, err
	}
	if r.IsDeleted {
		return nil, engine.Errorf(CodeCustomerDeleted, "customer %s is deleted", id)
	}
	return r, nil
}

// ByUma finds the customer holding a UMA address inside t: UMA_NOT_FOUND
// when none does. Only customers that are not deleted hold one.
func ByUma(t *engine.Txn, addr string) (*Customer, error) {
	id, err := t.Get(tableCustomerUma, addr)
	if errors.Is(err, engine.ErrNotFound) {
		return nil, engine.Errorf(engine.CodeUmaNotFound, "no customer holds UMA address %s", addr)
	}
	if err != nil {
		return nil, err
	}
	return Get(t, string(id))
}

// Transacting loads a customer that may move money now: it exists
// (CUSTOMER_NOT_FOUND), is not deleted (CUSTOMER_DELETED), and on an
// unregulated platform has accepted the provider's end-user terms
// (END_USER_TERMS_NOT_ACCEPTED otherwise). Its verification status is not
// checked: incoming money credits any customer (see Sending).
//
// The customer it returns comes from the area's read cache (every quote
// asks for its customer) and is shared with other transactions: it must
// not be changed.
func Transacting(t *engine.Txn, id string) (*Customer, error) {
	r, err := customersSlot.Of(t.Handle).cache.Get(t, tableCustomers, id)
	if err != nil {
		return nil, engine.NotFound(err, engine.CodeCustomerNotFound, "customer", id)
	}
	if r.IsDeleted {
		return nil, engine.Errorf(CodeCustomerDeleted, "customer %s is deleted", id)
	}
	p, err := platform.Load(t)
	if err != nil {
		return nil, err
	}
	if !p.IsRegulatedFinancialInstitution && !r.AcceptedEndUserTerms() {
		return nil, engine.Errorf(CodeEndUserTermsNotAccepted,
			"customer %s has not accepted the provider's end-user terms (agreementConsents type %s)", id, AgreementProviderEndUserTerms)
	}
	return &r.Customer, nil
}

// Sending loads a customer that may send money from its accounts
// now: a transacting customer (Transacting, with its errors) whose
// kycStatus or kybStatus is neither REJECTED nor HOLD (SENDER_NOT_ACCEPTED
// otherwise, with the status in its details). Money coming in checks
// Transacting only, so it still credits such a customer.
//
// The customer it returns is shared and must not be changed.
func Sending(t *engine.Txn, id string) (*Customer, error) {
	c, err := Transacting(t, id)
	if err != nil {
		return nil, err
	}
	if s := c.Status(); !s.MaySend() {
		field := "kycStatus"
		if c.CustomerType == CustomerBusiness {
			field = "kybStatus"
		}
		return nil, &engine.Error{Code: CodeSenderNotAccepted, Message: "customer " + id + " cannot send money while its " + field + " is " + string(s),
			Details: map[string]any{"customerId": id, field: string(s)}}
	}
	return c, nil
}

// Insert stores c as it is, with its UMA address's index entry: for
// fixtures that set customers up directly (the engine's tests). It checks
// nothing, opens no account and does not claim the platformCustomerId.
func Insert(t *engine.Txn, c Customer) error {
	if err := engine.InsertJSON(t, tableCustomers, c.ID, c); err != nil {
		return err
	}
	if c.UmaAddress != "" {
		return t.Insert(tableCustomerUma, c.UmaAddress, []byte(c.ID))
	}
	return nil
}

// UpdateRecord applies in to customer id inside t, with Update's rules
// and errors. contact sees the record once the input applied, before
// anything is written, with the previous email and phone; when it says
// stop, nothing of the customer is written and the customer returned is
// nil (a signed flow's challenge was issued). The wallets area calls it
// for contact changes that the wallet's holder signs.
func UpdateRecord(t *engine.Txn, id string, in CustomerInput, contact func(r *Record, oldEmail, oldPhone string) (stop bool, err error)) (*Customer, error) {
	e := t.Handle
	p, err := platform.Load(t)
	if err != nil {
		return nil, err
	}
	r, err := Live(t, id)
	if err != nil {
		return nil, err
	}
	oldUma, oldPID, oldEmail, oldPhone := r.UmaAddress, r.PlatformCustomerID, r.Email, r.PhoneNumber
	var fe validate.Errors
	if in.CustomerType == "" {
		fe.Missing("customerType")
	} else if in.CustomerType != r.CustomerType {
		fe.Add("customerType", &validate.Constraint{Enum: []string{string(r.CustomerType)}}, "customerType cannot change; this customer is %s", r.CustomerType)
	}
	if in.KYCStatus != "" || in.KYBStatus != "" {
		fe.Add("kycStatus", nil, "the verification status changes only through verification")
	}
	if in.Email != "" && in.Email != r.Email && in.PhoneNumber != "" && in.PhoneNumber != r.PhoneNumber {
		fe.Add("phoneNumber", nil, "email and phoneNumber cannot change in the same request; update them in separate PATCH calls")
	}
	applyCustomerInput(e, &fe, r, &in, p)
	if err := finishCustomerInput(e, fe, r, &in); err != nil {
		return nil, err
	}
	if stop, err := contact(r, oldEmail, oldPhone); stop || err != nil {
		return nil, err
	}
	r.UpdatedAt = t.Now
	if err := claimCustomerKeys(t, r, oldUma, oldPID); err != nil {
		return nil, err
	}
	if err := engine.PutJSON(t, tableCustomers, id, r); err != nil {
		return nil, err
	}
	if err := provisionAccounts(t, r, p); err != nil {
		return nil, err
	}
	return customerView(t, r)
}

// IntendCode records, inside t, that m is to be delivered after commit:
// the intent "code:<m.ID>" commits with the caller's transaction, and
// nothing is sent if that transaction rolls back. The caller stores the
// code's hash on the record it authorizes. Used by this area and by the
// areas above for their challenges (quotes' payouts, accounts' beneficiary
// trust, wallets' logins).
func IntendCode(t *engine.Txn, m CodeMessage) error {
	b, err := json.Marshal(codeIntent{Code: &m})
	if err != nil {
		return err
	}
	return t.Intend(intentCode+":"+m.ID, b)
}

// ForSCA loads, inside t, the customer of an SCA operation and its SCA
// state: INVALID_INPUT without an id, CUSTOMER_NOT_FOUND,
// CUSTOMER_DELETED, CONFLICT outside SCA regions. A caller that changes
// the state stores it with SaveSCA in the same transaction.
func ForSCA(t *engine.Txn, id string) (*Record, *SCARecord, error) {
	var fe validate.Errors
	if !fe.Required("customerId", id) {
		return nil, nil, engine.Invalid(fe)
	}
	c, err := Live(t, id)
	if err != nil {
		return nil, nil, err
	}
	if !customersSlot.Of(t.Handle).KYC.SCARequired(&c.Customer) {
		return nil, nil, engine.Errorf(engine.CodeConflict, "customer %s is not in a region that uses Strong Customer Authentication", id)
	}
	st, err := SCAState(t, id)
	return c, st, err
}

// SCAState loads a customer's SCA state inside t (empty when none is
// stored: a customer's state is created by its first SCA write). It does
// not check the customer; ForSCA does.
func SCAState(t *engine.Txn, id string) (*SCARecord, error) {
	var st SCARecord
	if err := engine.GetJSON(t, tableSCA, id, &st); err != nil && !errors.Is(err, engine.ErrNotFound) {
		return nil, err
	}
	return &st, nil
}

// SaveSCA stores customer id's SCA state inside t.
func SaveSCA(t *engine.Txn, id string, st *SCARecord) error {
	return engine.PutJSON(t, tableSCA, id, st)
}

// CheckProof checks p against the challenge ch of a customer in state st:
// nil when it satisfies it, ErrWrongProof when it is wrong, INVALID_INPUT
// for a proof of the wrong shape. A passkey's counter advances in st, and
// a TOTP recovery code used is spent from st: the caller saves st whatever
// the answer. A TOTP challenge also accepts the sandbox's fixed code from
// d and any unspent recovery code.
func CheckProof(t *engine.Txn, st *SCARecord, ch *SCAPending, p ScaAuthorization, d SCADraw) error {
	var fe validate.Errors
	if ch.Factor != FactorPasskey {
		if !fe.Required("code", p.Code) {
			return engine.Invalid(fe)
		}
		switch ch.Factor {
		case FactorTOTP:
			if TOTPValid(st.TOTPSecret, p.Code, t.Now) || d.sandboxTOTP != "" && p.Code == d.sandboxTOTP || st.spendRecovery(p.Code) {
				return nil
			}
		default:
			if subtle.ConstantTimeCompare([]byte(engine.HashSecret(p.Code)), []byte(ch.CodeHash)) == 1 {
				return nil
			}
		}
		return ErrWrongProof
	}
	if p.PasskeyAssertion == nil {
		fe.Missing("passkeyAssertion")
	}
	rp := RelyingParty(t.Handle)
	if fe.Required("origin", p.Origin) && !slices.Contains(rp.Origins, p.Origin) {
		fe.Add("origin", &validate.Constraint{Enum: rp.Origins}, "origin must be one of the allowed origins")
	}
	if err := engine.Invalid(fe.Err()); err != nil {
		return err
	}
	if st.Passkey == nil {
		return ErrWrongProof
	}
	rp.Origins = []string{p.Origin}
	count, err := rp.Assert(st.Passkey.Passkey, ch.Nonce, *p.PasskeyAssertion)
	if err != nil {
		return ErrWrongProof
	}
	st.Passkey.SignCount = count
	return nil
}

// ProofFailed counts a wrong proof against the customer: ACCOUNT_LOCKED
// once the count locks the login, INVALID_INPUT on field otherwise. The
// count is in st; the caller saves it and commits although it answers the
// error (engine.Keep), or the lockout could be bypassed by retrying.
func ProofFailed(t *engine.Txn, st *SCARecord, field string) error {
	st.Security.Fail(t.Now)
	if st.Security.Locked(t.Now) {
		return LockedError(st.Security)
	}
	var fe validate.Errors
	fe.Add(field, nil, "the %s does not satisfy the challenge", field)
	return engine.Invalid(fe)
}
