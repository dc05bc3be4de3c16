package customers_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/sandbox"
)

// flakyKYC is the sandbox provider failing InitialStatus for one full
// name while down is set (fault injection).
type flakyKYC struct {
	sandbox.KYC
	down atomic.Bool
	name string
}

func (k *flakyKYC) InitialStatus(ctx context.Context, c *payments.Customer, p *payments.PlatformConfig) (payments.KYCStatus, error) {
	if k.down.Load() && c.FullName == k.name {
		return "", errors.New("provider unavailable")
	}
	return k.KYC.InitialStatus(ctx, c, p)
}

// TestEngine_BulkImportRetriesABatch: the upload stores the job and
// returns it PROCESSING with nothing imported; due work imports its rows
// in batches. A batch that cannot run (its provider fails) writes nothing
// and is retried with backoff without holding up the earlier batches'
// results; once it runs, the job completes with every row created once.
func TestEngine_BulkImportRetriesABatch(t *testing.T) {
	kyc := &flakyKYC{name: "Person 230"}
	kyc.down.Store(true)
	e := enginetest.NewEnv(t, func(c *payments.Config) { c.KYC = kyc })
	var b strings.Builder
	b.WriteString("platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country\n")
	for i := range 250 {
		fmt.Fprintf(&b, "p%d,INDIVIDUAL,Person %d,1990-01-15,1 Main St,Austin,TX,78701,US\n", i, i)
	}
	job, err := e.Eng.Customers.Import(ctx, []byte(b.String()))
	require.NoError(t, err)
	assert.Equal(t, "PROCESSING", job.Status)
	assert.Equal(t, payments.BulkProgress{Total: 250}, job.Progress)

	_, err = e.Eng.ProcessDue(ctx)
	require.NoError(t, err)
	got, err := e.Eng.Customers.BulkJob(ctx, job.ID)
	require.NoError(t, err)
	assert.Equal(t, "PROCESSING", got.Status)
	assert.Equal(t, payments.BulkProgress{Total: 250, Processed: 200, Successful: 200}, got.Progress, "the third batch waits")

	kyc.down.Store(false)
	e.Clock.Advance(24 * time.Hour) // past the backoff
	_, err = e.Eng.ProcessDue(ctx)
	require.NoError(t, err)
	got, err = e.Eng.Customers.BulkJob(ctx, job.ID)
	require.NoError(t, err)
	assert.Equal(t, "COMPLETED", got.Status)
	assert.Equal(t, payments.BulkProgress{Total: 250, Processed: 250, Successful: 250}, got.Progress)
	assert.Empty(t, got.Errors)
	n, params := 0, payments.ListParams{Limit: payments.MaxLimit}
	for {
		page, err := e.Eng.Customers.List(ctx, payments.CustomerFilter{}, params)
		require.NoError(t, err)
		n += len(page.Data)
		if !page.HasMore {
			break
		}
		params.Cursor = page.NextCursor
	}
	assert.Equal(t, 250, n, "every row created once")
}
