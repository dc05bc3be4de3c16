package customers_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/sandbox"
	"github.com/paygrid/payments/storage/memstore"
)

// markingStore is a memstore that marks the transactions running on it,
// so that a provider can tell whether it was asked from one.
type markingStore struct {
	*memstore.Store
	inTxn atomic.Int32
}

func (s *markingStore) Update(ctx context.Context, fn func(payments.Tx) error) error {
	return s.Store.Update(ctx, func(tx payments.Tx) error {
		s.inTxn.Add(1)
		defer s.inTxn.Add(-1)
		return fn(tx)
	})
}

func (s *markingStore) View(ctx context.Context, fn func(payments.Tx) error) error {
	return s.Store.View(ctx, func(tx payments.Tx) error {
		s.inTxn.Add(1)
		defer s.inTxn.Add(-1)
		return fn(tx)
	})
}

// probeKYC is the sandbox provider counting the calls that may reach the
// network, and those made while a transaction of store ran.
type probeKYC struct {
	sandbox.KYC
	store        *markingStore
	calls, inTxn atomic.Int32
}

func (k *probeKYC) note() {
	k.calls.Add(1)
	if k.store.inTxn.Load() > 0 {
		k.inTxn.Add(1)
	}
}

func (k *probeKYC) InitialStatus(ctx context.Context, c *payments.Customer, p *payments.PlatformConfig) (payments.KYCStatus, error) {
	k.note()
	return k.KYC.InitialStatus(ctx, c, p)
}

func (k *probeKYC) Review(ctx context.Context, s *payments.KYCSubmission) (payments.KYCDecision, error) {
	k.note()
	return k.KYC.Review(ctx, s)
}

// TestKYC_NeverAskedInATransaction: creating a customer, submitting its
// verification and importing customers in bulk ask the KYC provider, which
// may call the network, outside every transaction of the store.
func TestKYC_NeverAskedInATransaction(t *testing.T) {
	store := &markingStore{Store: memstore.New()}
	kyc := &probeKYC{store: store}
	e := enginetest.NewEnv(t, func(c *payments.Config) { c.Store, c.KYC = store, kyc })
	c, err := e.Eng.Customers.Create(ctx, enginetest.FullIndividual("Ann 001"))
	require.NoError(t, err)
	e.Upload(t, c.ID, "PASSPORT")
	v, err := e.Eng.Customers.SubmitVerification(ctx, c.ID)
	require.NoError(t, err)
	assert.Equal(t, payments.VerificationPendingManualReview, v.VerificationStatus)

	var b strings.Builder
	b.WriteString("platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country\n")
	for i := range 3 {
		fmt.Fprintf(&b, "p%d,INDIVIDUAL,Person %d,1990-01-15,1 Main St,Austin,TX,78701,US\n", i, i)
	}
	job, err := e.Eng.Customers.Import(ctx, []byte(b.String()))
	require.NoError(t, err)
	_, err = e.Eng.ProcessDue(ctx)
	require.NoError(t, err)
	got, err := e.Eng.Customers.BulkJob(ctx, job.ID)
	require.NoError(t, err)
	assert.Equal(t, payments.BulkProgress{Total: 3, Processed: 3, Successful: 3}, got.Progress)

	assert.EqualValues(t, 5, kyc.calls.Load(), "one creation, one review, three rows")
	assert.Zero(t, kyc.inTxn.Load(), "never from a transaction")
}
