package stablecoins

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"strconv"
	"time"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/rails"
)

// opRecord is an operation as stored: the API view, its amounts as
// numbers, its fiat currency, and the provider's plan.
type opRecord struct {
	Operation
	Units    int64            `json:"units"`
	Cents    int64            `json:"cents"`
	Currency string           `json:"currency"`
	Steps    []StablecoinStep `json:"steps,omitempty"`
	Next     int              `json:"next"` // the index of the step still to apply
}

// opDue is an item of tableStablecoinOpsDue: step Step of the operation,
// or the end of its funding window.
type opDue struct {
	Op     string `json:"op"`
	Step   int    `json:"step"`
	Expiry bool   `json:"expiry,omitempty"`
}

// opDraft is what an operation's checks produce before it is planned. The
// checks run twice, in the read transaction before the provider is asked
// and again in the write transaction, so a draft never outlives one
// transaction.
type opDraft struct {
	coin        *Stablecoin
	link        *linkRecord
	units       int64
	cents       int64
	source      Source
	destination Destination
	plan        StablecoinPlanRequest
}

// Mint creates a mint of a PROVISIONED stablecoin through its provider
// account link: the amount must map to whole cents
// (STABLECOIN_AMOUNT_NOT_REPRESENTABLE), the funding source is a wire (the
// operation then carries funding instructions and waits in PENDING_FUNDING)
// or an ACH debit of a bank account in the token's base currency, and the
// tokens go to a Spark wallet external account. When it COMPLETES its fiat
// value enters the token's reserve account in the ledger.
//
// Refusals: INVALID_INPUT for the request's shape; STABLECOIN_NOT_FOUND;
// the link's refusals (STABLECOIN_PROVIDER_ACCOUNT_INVALID, _REVOKED);
// STABLECOIN_NOT_PROVISIONED; STABLECOIN_SERVICE_OPERATIONS_NOT_ENABLED or
// STABLECOIN_OPERATION_NOT_SUPPORTED for Service-managed accounts and the
// provider's balance; STABLECOIN_EXTERNAL_ACCOUNT_NOT_FOUND or
// _NOT_SUPPORTED for the accounts named; the provider's errors
// (providerError).
func (s Service) Mint(ctx context.Context, coinID string, req MintRequest) (*Operation, error) {
	return engine.Run(ctx, s.e, mintOp, opRequest{coinID: coinID, req: &req, description: req.Description, check: func(t *engine.Txn) (*opDraft, error) {
		d, err := draft(t, coinID, req.Amount)
		if err != nil {
			return nil, err
		}
		if err := stablecoinError(CheckMint(d.coin, &req)); err != nil {
			return nil, err
		}
		if id := req.FundingSource.ExternalAccountID; id != "" {
			if err := stablecoinExternal(t, d.coin, RoleMintFunding, id, ""); err != nil {
				return nil, err
			}
		}
		if err := stablecoinExternal(t, d.coin, RoleMintDestination, req.Destination.AccountID, ""); err != nil {
			return nil, err
		}
		d.source, d.destination = req.FundingSource, Destination{AccountID: req.Destination.AccountID}
		d.plan.Type, d.plan.Source, d.plan.DestinationAccountID = Mint, req.FundingSource, req.Destination.AccountID
		return d, nil
	}})
}

// mintOp is Service.Mint's operation (see createOp).
var mintOp = engine.Op[opRequest, *Operation, planned]{Area: "stablecoins", Name: "Mint",
	Validate: checkOp, Prefetch: planOp, Decide: recordOp}

// Burn creates a burn of a PROVISIONED stablecoin: its fiat value is
// paid out of the token's reserve to a bank account in the base currency
// on the named rail. The value is held in the ledger at creation (a burn
// beyond what was minted is INSUFFICIENT_FUNDS), paid out when the burn
// COMPLETES and released when it fails or expires. Tokens sent from an
// external wallet (source EXTERNAL_ACCOUNT) are awaited in PENDING_FUNDING
// at the deposit address of the funding instructions; the provider's own
// balance needs no funding; Service internal accounts are
// STABLECOIN_BURN_SOURCE_NOT_SUPPORTED (or _SERVICE_OPERATIONS_NOT_ENABLED).
// The payout account must be a bank account in the base currency that the
// rail reaches (STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED) and can be paid
// (INVALID_BANK_ACCOUNT, BANK_ACCOUNT_VALIDATION_PENDING); the other
// refusals are Mint's.
func (s Service) Burn(ctx context.Context, coinID string, req BurnRequest) (*Operation, error) {
	return engine.Run(ctx, s.e, burnOp, opRequest{coinID: coinID, req: &req, description: req.Description, check: func(t *engine.Txn) (*opDraft, error) {
		d, err := draft(t, coinID, req.Amount)
		if err != nil {
			return nil, err
		}
		if err := stablecoinError(CheckBurn(d.coin, &req)); err != nil {
			return nil, err
		}
		dst := req.Destination
		if err := stablecoinExternal(t, d.coin, RoleBurnDestination, dst.ExternalAccountID, dst.Rail); err != nil {
			return nil, err
		}
		d.source, d.destination = req.Source, Destination{AccountID: dst.ExternalAccountID, Rail: dst.Rail}
		d.plan.Type, d.plan.Source, d.plan.DestinationAccountID, d.plan.Rail = Burn, req.Source, dst.ExternalAccountID, dst.Rail
		return d, nil
	}})
}

// burnOp is Service.Burn's operation (see createOp).
var burnOp = engine.Op[opRequest, *Operation, planned]{Area: "stablecoins", Name: "Burn",
	Validate: checkOp, Prefetch: planOp, Decide: recordOp}

// draft loads what every operation needs: the stablecoin, its link (which
// must still be ACTIVE) and the amount in units and cents.
func draft(t *engine.Txn, coinID, amount string) (*opDraft, error) {
	coin, err := stablecoin(t, coinID)
	if err != nil {
		return nil, err
	}
	link, err := selectLink(t, coin.StablecoinProviderAccountID)
	if err != nil {
		return nil, err
	}
	units, cents, err := Amount("amount", amount, coin.Decimals)
	if err != nil {
		return nil, stablecoinError(err)
	}
	return &opDraft{coin: coin, link: link, units: units, cents: cents,
		plan: StablecoinPlanRequest{ProviderTokenIdentifier: coin.ProviderTokenIdentifier, Amount: units, Cents: cents}}, nil
}

// stablecoinExternal checks an external account an operation names:
// STABLECOIN_EXTERNAL_ACCOUNT_NOT_FOUND when absent,
// STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED when of the wrong kind, and the
// usual refusals of an account that cannot be paid (a burn's payout
// account), or INVALID_BANK_ACCOUNT for an inactive one in another role.
// Blockchain wallets have no bank rails: CheckExternal sees none for them.
func stablecoinExternal(t *engine.Txn, coin *Stablecoin, role, id, rail string) error {
	r, err := accounts.ExternalRecordOf(t, id)
	if engine.CodeOf(err) == engine.CodeAccountNotFound {
		return engine.Errorf(CodeStablecoinExternalAccountNotFound, "external account %s not found", id)
	}
	if err != nil {
		return err
	}
	a := &r.ExternalAccount
	var variantRails []string
	if accounts.Chain(a.AccountType()) == "" {
		if v, ok := accounts.Variants[a.AccountType()]; ok {
			variantRails = v.Rails
		}
	}
	if err := stablecoinError(CheckExternal(role, a.AccountType(), a.Currency, coin.BaseCurrency, rail, variantRails)); err != nil {
		return err
	}
	if role == RoleBurnDestination {
		return accounts.UsableDestination(t, r, 0)
	}
	if a.Status == rails.ExternalInactive {
		return engine.Errorf(engine.CodeInvalidBankAccount, "external account %s is inactive", a.ID)
	}
	return nil
}

// opRequest is a mint or burn request: the stablecoin, the request, its
// description and the checks (check) that draft the operation in a
// transaction.
type opRequest struct {
	coinID      string
	req         interface{ Validate() error }
	description string
	check       func(t *engine.Txn) (*opDraft, error)
}

// MarshalJSON fingerprints the request for its idempotency key as the
// pair [stablecoin id, request].
func (r opRequest) MarshalJSON() ([]byte, error) { return json.Marshal([]any{r.coinID, r.req}) }

// planned is what a mint or burn gathers before its transaction: the
// provider's plan.
type planned struct{ plan StablecoinPlan }

// A mint or burn (mintOp, burnOp) checks its request in a read
// transaction, asks the provider for its plan outside every transaction
// (planOp), then in one write transaction checks again, records the
// operation with its ledger hold and schedules its first step (recordOp).
//
// The plan is not asked again if the write transaction's checks choose
// another link than the read's: the operation is recorded with the link
// of the write transaction and the plan made for the first.

// checkOp checks a mint's or burn's fields (INVALID_INPUT).
func checkOp(r *opRequest) error { return engine.Invalid(r.req.Validate()) }

// planOp checks the request in a read transaction and asks the provider
// for the operation's plan.
func planOp(ctx context.Context, e *engine.Handle, r *opRequest, f *planned, _ error) error {
	var d *opDraft
	if err := e.View(ctx, func(t *engine.Txn) (err error) { d, err = r.check(t); return err }); err != nil {
		return err
	}
	var err error
	if f.plan, err = stablecoinsSlot.Of(e).Provider.Plan(ctx, d.link.ref(), d.plan); err != nil {
		return providerError(err)
	}
	return nil
}

// recordOp checks the request again and records the operation.
func recordOp(t *engine.Txn, r *opRequest, f *planned) (*Operation, error) {
	plan := f.plan
	d, err := r.check(t)
	if err != nil {
		return nil, err
	}
	src, dst := d.source, d.destination
	op := &opRecord{Operation: Operation{ID: t.NewID("StablecoinOperation"), StablecoinID: d.coin.ID,
		OperationType: d.plan.Type, Status: OpCreated, Amount: strconv.FormatInt(d.units, 10),
		Provider: d.link.Provider, ProviderEnvironment: d.link.ProviderEnvironment, StablecoinProviderAccountID: d.link.ID,
		Source: &src, Destination: &dst, Description: r.description, CreatedAt: t.Now, UpdatedAt: t.Now},
		Units: d.units, Cents: d.cents, Currency: d.coin.BaseCurrency, Steps: plan.Steps}
	if d.plan.Type == Burn {
		op.EstimatedDelivery = &EstimatedDelivery{Rail: dst.Rail, Amount: strconv.FormatInt(d.cents, 10),
			Currency: d.coin.BaseCurrency, Timing: Timing(dst.Rail)}
		if err := engine.PostEntry(t, op.ID, BurnHoldPostings(d.coin.ID, op.Currency, op.Cents)); err != nil {
			return nil, err
		}
	}
	if plan.FundingInstructions != nil {
		op.Status, op.FundingInstructions = OpPendingFunding, plan.FundingInstructions
		exp := t.Now.Add(plan.FundingWindow)
		op.ExpiresAt = &exp
		if err := scheduleOp(t, exp, opDue{Op: op.ID, Expiry: true}); err != nil {
			return nil, err
		}
	} else if err := startSteps(t, op, t.Now); err != nil {
		return nil, err
	}
	if err := engine.InsertJSON(t, tableStablecoinOps, op.ID, op); err != nil {
		return nil, err
	}
	return &op.Operation, nil
}

// scheduleOp writes the due item d at time at. Its key carries the step
// index, so a step and the funding expiry (step 0) of one operation never
// overwrite each other unless both fall due at the same instant.
func scheduleOp(t *engine.Txn, at time.Time, d opDue) error {
	b, err := json.Marshal(d)
	if err != nil {
		return err
	}
	return t.Put(tableStablecoinOpsDue, engine.DueKey(at, d.Op+"|"+strconv.Itoa(d.Step)), b)
}

// startSteps schedules the operation's next step after from (applying
// steps due at once in this transaction).
func startSteps(t *engine.Txn, op *opRecord, from time.Time) error {
	for op.Next < len(op.Steps) && !Terminal(op.Status) {
		st := op.Steps[op.Next]
		if st.After > 0 {
			return scheduleOp(t, from.Add(st.After), opDue{Op: op.ID, Step: op.Next})
		}
		if err := applyOpStep(t, op, from); err != nil {
			return err
		}
	}
	return nil
}

// applyOpStep moves op to its next step's state at the step's due time,
// posting the ledger entries of a terminal state. The operation's
// updatedAt is the time the step is applied (t.Now), not at.
func applyOpStep(t *engine.Txn, op *opRecord, at time.Time) error {
	st := op.Steps[op.Next]
	op.Next++
	if !CanMove(op.Status, st.Status) {
		return engine.Errorf(engine.CodeInvalidStateTransition, "operation %s cannot move from %s to %s", op.ID, op.Status, st.Status)
	}
	op.Status, op.UpdatedAt = st.Status, t.Now
	if st.ProviderState != "" {
		op.ProviderStatus = st.ProviderState
	}
	if st.Status == OpFailed {
		op.FailureReason = st.FailureReason
	}
	return settleOp(t, op)
}

// settleOp posts the ledger entry of an operation that reached a terminal
// state: a completed mint adds its value to the reserve; a completed burn
// pays its held value out; a failed or expired burn releases it.
func settleOp(t *engine.Txn, op *opRecord) error {
	coin := op.StablecoinID
	switch {
	case op.OperationType == Mint && op.Status == OpCompleted:
		return engine.PostEntry(t, op.ID, MintPostings(coin, op.Source.Type, op.Currency, op.Cents))
	case op.OperationType == Burn && op.Status == OpCompleted:
		return engine.PostEntry(t, op.ID, BurnPayoutPostings(coin, op.Destination.Rail, op.Currency, op.Cents))
	case op.OperationType == Burn && (op.Status == OpFailed || op.Status == OpExpired):
		return engine.PostEntry(t, op.ID, BurnReleasePostings(coin, op.Currency, op.Cents))
	}
	return nil
}

// applyStablecoinOpDue applies one due step or funding expiry. An item
// that no longer fits (a step already applied, an operation that was
// funded in time or reached a final state) changes nothing; a step moves
// the operation on and schedules the next from its own due time, so a
// late worker does not shift the plan.
func applyStablecoinOpDue(t *engine.Txn, key string, value []byte) (bool, error) {
	var d opDue
	if err := json.Unmarshal(value, &d); err != nil {
		return false, err
	}
	op, err := stablecoinOp(t, d.Op)
	if err != nil {
		return false, err
	}
	at := engine.DueAt(key)
	switch {
	case d.Expiry:
		if op.Status != OpPendingFunding {
			return false, nil // funded in time
		}
		op.Status, op.UpdatedAt = OpExpired, t.Now
		if err := settleOp(t, op); err != nil {
			return false, err
		}
	case d.Step != op.Next || Terminal(op.Status) || op.Status == OpPendingFunding:
		return false, nil
	default:
		if err := applyOpStep(t, op, at); err != nil {
			return false, err
		}
		if err := startSteps(t, op, at); err != nil {
			return false, err
		}
	}
	return true, engine.PutJSON(t, tableStablecoinOps, op.ID, op)
}

// ReportFunding records that the provider received an operation's
// funding (the issuer's wire for a mint, the tokens for an external-source
// burn): a PENDING_FUNDING operation then takes the provider's steps. A
// funding report for an operation in another state is
// INVALID_STATE_TRANSITION; an expired one stays EXPIRED. In the sandbox it
// stands for the provider's notification. An unknown operation is
// STABLECOIN_OPERATION_NOT_FOUND. A funding window that ended is judged by
// its time, not by whether the expiry ran: a late report is refused even
// before the operation reads EXPIRED.
func (s Service) ReportFunding(ctx context.Context, opID string) (*Operation, error) {
	return engine.Run(ctx, s.e, reportFunding, opID)
}

// reportFunding is Service.ReportFunding's operation.
var reportFunding = engine.Op[string, *Operation, struct{}]{Area: "stablecoins", Name: "ReportFunding",
	Decide: func(t *engine.Txn, opID *string, _ *struct{}) (*Operation, error) {
		op, err := stablecoinOp(t, *opID)
		if err != nil {
			return nil, err
		}
		if op.Status != OpPendingFunding || (op.ExpiresAt != nil && !t.Now.Before(*op.ExpiresAt)) {
			return nil, engine.Errorf(engine.CodeInvalidStateTransition, "operation %s is %s, not awaiting funding", op.ID, op.Status)
		}
		op.Status, op.ExpiresAt, op.UpdatedAt = OpPendingProvider, nil, t.Now
		if err := startSteps(t, op, t.Now); err != nil {
			return nil, err
		}
		if err := engine.PutJSON(t, tableStablecoinOps, op.ID, op); err != nil {
			return nil, err
		}
		return &op.Operation, nil
	}}

// Operation returns a mint or burn (STABLECOIN_OPERATION_NOT_FOUND).
func (s Service) Operation(ctx context.Context, id string) (*Operation, error) {
	return engine.Run(ctx, s.e, getOp, id)
}

// getOp is Service.Operation's operation.
var getOp = engine.Op[string, *Operation, struct{}]{Area: "stablecoins", Name: "Operation", Access: engine.Read,
	Decide: func(t *engine.Txn, id *string, _ *struct{}) (*Operation, error) {
		rec, err := stablecoinOp(t, *id)
		if err != nil {
			return nil, err
		}
		return &rec.Operation, nil
	}}

// stablecoinOp loads an operation as stored
// (STABLECOIN_OPERATION_NOT_FOUND).
func stablecoinOp(t *engine.Txn, id string) (*opRecord, error) {
	var r opRecord
	if err := engine.GetJSON(t, tableStablecoinOps, id, &r); err != nil {
		return nil, engine.NotFound(err, CodeStablecoinOperationNotFound, "stablecoin operation", id)
	}
	return &r, nil
}

// ListOperations lists a stablecoin's mints and burns (only one type when
// opType is set), in creation order (newest first with p.Desc).
func (s Service) ListOperations(ctx context.Context, coinID string, opType OpType, p engine.ListParams) (engine.Page[Operation], error) {
	return engine.Run(ctx, s.e, listOps, opList{coinID, opType, p})
}

// opList is a ListOperations request.
type opList struct {
	coinID string
	opType OpType
	p      engine.ListParams
}

// listOps is Service.ListOperations's operation.
var listOps = engine.Op[opList, engine.Page[Operation], struct{}]{Area: "stablecoins", Name: "ListOperations", Access: engine.Read,
	Decide: func(t *engine.Txn, in *opList, _ *struct{}) (engine.Page[Operation], error) {
		if _, err := stablecoin(t, in.coinID); err != nil {
			return engine.Page[Operation]{}, err
		}
		q := engine.ListQuery[opRecord]{Table: tableStablecoinOps, Index: ixCoin, Value: in.coinID}
		if in.opType != "" {
			q.Index, q.Value = ixCoinType, in.coinID+"/"+string(in.opType)
		}
		recs, err := engine.List(t, q, in.p)
		if err != nil {
			return engine.Page[Operation]{}, err
		}
		return engine.MapPage(recs, func(r *opRecord) (*Operation, error) { return &r.Operation, nil })
	}}

// ListOperationsAll walks every page of ListOperations from p on (engine.All):
// each item with a nil error, or one pair with a page's error; breaking
// out of the loop reads no further page.
func (s Service) ListOperationsAll(ctx context.Context, coinID string, opType OpType, p engine.ListParams) iter.Seq2[Operation, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[Operation], error) {
		return s.ListOperations(ctx, coinID, opType, p)
	})
}

// Reserve reports a stablecoin's fiat reserve in its base currency, in
// cents: the value available to burns and the value held by burns in
// flight (STABLECOIN_NOT_FOUND for an unknown id).
func (s Service) Reserve(ctx context.Context, coinID string) (available, held int64, err error) {
	r, err := engine.Run(ctx, s.e, reserveOp, coinID)
	return r[0], r[1], err
}

// reserveOp is Service.Reserve's operation; its answer is [available,
// held].
var reserveOp = engine.Op[string, [2]int64, struct{}]{Area: "stablecoins", Name: "Reserve", Access: engine.Read,
	Decide: func(t *engine.Txn, coinID *string, _ *struct{}) (r [2]int64, err error) {
		c, err := stablecoin(t, *coinID)
		if err == nil {
			if r[0], err = engine.Balance(t, Reserve(c.ID), c.BaseCurrency); err == nil {
				r[1], err = engine.Balance(t, accounts.Held(Reserve(c.ID)), c.BaseCurrency)
			}
		}
		if errors.Is(err, engine.ErrNotFound) {
			err = engine.Errorf(CodeStablecoinNotFound, "stablecoin %s not found", *coinID)
		}
		return r, err
	}}
