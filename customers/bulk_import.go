package customers

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/platform"
	"github.com/paygrid/payments/validate"
)

// tableBulkJobs holds customer import jobs by id, with their rows until
// they finish (bulkJobRecord).
const tableBulkJobs = "bulk_jobs"

// BulkJob is a customer CSV import and its outcome (reference
// BulkCustomerImportJob). Rows are created in batches, each in one
// transaction with the job's progress; a bad row is recorded in Errors and
// writes nothing, so it never blocks the good ones. Status is PROCESSING
// from the upload until the last batch sets COMPLETED or FAILED.
type BulkJob struct {
	ID          string         `json:"id"`
	Status      string         `json:"status"` // PROCESSING, then COMPLETED or FAILED (PENDING is not used)
	Progress    BulkProgress   `json:"progress"`
	Errors      []BulkRowError `json:"errors"`
	CreatedAt   time.Time      `json:"-"`
	CompletedAt *time.Time     `json:"completedAt,omitempty"`
}

// BulkProgress counts rows: Total is the file's, and Processed =
// Successful + Failed reaches it when the job completes.
type BulkProgress struct {
	Total      int `json:"total"`
	Processed  int `json:"processed"`
	Successful int `json:"successful"`
	Failed     int `json:"failed"`
}

// BulkRowError is the failure of one row; CorrelationID names the row by
// its platformCustomerId, or "row N" (1-based, after the header).
type BulkRowError struct {
	CorrelationID string         `json:"correlationId"`
	Code          engine.Code    `json:"code"`
	Message       string         `json:"message"`
	Details       map[string]any `json:"details,omitempty"`
}

// bulkColumns are the reference's CSV columns.
var bulkColumns = []string{"umaAddress", "platformCustomerId", "customerType", "fullName", "birthDate", "addressLine1",
	"addressLine2", "city", "state", "postalCode", "country", "platformAccountId", "description", "email",
	"businessLegalName", "businessRegistrationNumber", "businessTaxId", "businessIncorporatedOn"}

// Import reads a CSV of customers (the reference's columns; a
// umaAddress without its leading "$" gets one; businesses also need the
// businessIncorporatedOn column, which the reference lacks;
// platformAccountId and description are read but not used) and stores it
// as a PROCESSING job in one transaction. A missing or empty file, a file
// that is not CSV, or one whose header lacks customerType, is
// INVALID_INPUT naming the field file, and nothing is stored.
//
// The rows are created afterwards, as due work (payments.Engine.ProcessDue,
// run every second by the engine's worker), in batches of bulkBatch rows,
// each batch in one transaction with the job's progress. Each row follows
// Create's rules; a row that is refused is recorded in the job's errors
// with its code and writes nothing. The job returned is the job as it
// stands; BulkJob reads its progress, and its last batch completes it
// (COMPLETED, or FAILED when no row succeeded).
//
// The file is the operation's input: a retry with the same idempotency key
// and file replays the job, while a retry without a key imports the file
// again (and its rows then meet the first import's identifiers).
func (cs Service) Import(ctx context.Context, file []byte) (*BulkJob, error) {
	return engine.Run(ctx, cs.e, importCustomers, file)
}

// parsedFile is an import's file as parsed before its transaction: the
// column of each header name and the rows.
type parsedFile struct {
	col  map[string]int
	rows [][]string
}

// importCustomers is Service.Import's operation. The whole file is parsed
// before anything is stored, so a malformed line refuses the upload
// instead of failing a job halfway.
var importCustomers = engine.Op[[]byte, *BulkJob, parsedFile]{Area: "customers", Name: "Import",
	Prefetch: func(_ context.Context, _ *engine.Handle, in *[]byte, pf *parsedFile, _ error) error {
		file := *in
		refuse := func(format string, args ...any) error {
			var fe validate.Errors
			fe.Add("file", nil, format, args...)
			return engine.Invalid(fe)
		}
		if len(file) == 0 {
			return refuse("file is required: a CSV of customers with a header row")
		}
		rd := csv.NewReader(bytes.NewReader(file))
		rd.FieldsPerRecord = -1
		head, err := rd.Read()
		if err != nil {
			return refuse("the file must be a CSV with a header row")
		}
		col := map[string]int{}
		for i, h := range head {
			col[strings.TrimSpace(h)] = i
		}
		if _, ok := col["customerType"]; !ok {
			return refuse("the CSV header must name the customerType column (columns: %s)", strings.Join(bulkColumns, ", "))
		}
		// The whole file is parsed before anything is stored, so a malformed
		// line refuses the upload instead of failing a job halfway.
		var rows [][]string
		for {
			rec, err := rd.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return refuse("malformed CSV: %v", err)
			}
			rows = append(rows, rec)
		}
		pf.col, pf.rows = col, rows
		return nil
	},
	Decide: func(t *engine.Txn, _ *[]byte, pf *parsedFile) (*BulkJob, error) {
		id := t.NewID("BulkJob")
		job := &BulkJob{ID: id, Status: "PROCESSING", Progress: BulkProgress{Total: len(pf.rows)}, Errors: []BulkRowError{}, CreatedAt: t.Now}
		if err := engine.InsertJSON(t, tableBulkJobs, id, bulkJobRecord{BulkJob: *job, Columns: pf.col, Rows: pf.rows}); err != nil {
			return nil, err
		}
		// The job is due at once; resumeBulkJobs finds it on the next
		// pass of the due-work worker.
		if err := t.Put(tableBulkJobsDue, id, nil); err != nil {
			return nil, err
		}
		return job, nil
	}}

// bulkJobRecord is a job as stored, with its rows until it is finished.
// Columns maps a header name to its index, so the columns may come in any
// order and unknown ones are ignored.
type bulkJobRecord struct {
	BulkJob
	Columns map[string]int `json:"columns"`
	Rows    [][]string     `json:"rows"`
}

// tableBulkJobsDue lists the jobs not finished yet (key: job id, no value).
// Its retry state lives in engine.TableDueRetry like any due table's, so a
// failing job backs off and is parked in the dead letters.
const tableBulkJobsDue = "bulk_jobs_due"

// bulkBatch is how many rows of an import one transaction creates, and
// bulkBatchesPerPass how many batches of one job a pass of due work runs,
// so that a large import never holds the rest of the due work up for long
// (a pass takes 500 rows of each of up to 16 jobs).
const (
	bulkBatch          = 100
	bulkBatchesPerPass = 5
)

// input returns the customer request of row i.
func (j *bulkJobRecord) input(i int) CustomerInput {
	row := j.Rows[i]
	return bulkInput(func(name string) string {
		if c, ok := j.Columns[name]; ok && c < len(row) {
			return strings.TrimSpace(row[c])
		}
		return ""
	})
}

// runBulkBatch creates the next batch of a job's rows in one transaction
// that also records the job's progress, and completes the job with its
// last row. The KYC provider is asked for each row's starting status
// before the transaction, as CreateCustomer asks it. The batch starts
// where the stored progress stands and a batch that finds it moved
// (another runner's) writes nothing, so no row is created twice. It
// reports whether the job is finished.
func runBulkBatch(e *engine.Handle, ctx context.Context, id string) (bool, error) {
	var (
		rec     bulkJobRecord
		inputs  []CustomerInput
		initial []KYCStatus
	)
	// Read the next batch, then ask the provider for each row's starting
	// status, outside every transaction.
	var p *platform.Config
	err := e.View(ctx, func(t *engine.Txn) error {
		rec = bulkJobRecord{}
		if err := engine.GetJSON(t, tableBulkJobs, id, &rec); err != nil {
			return err
		}
		var err error
		p, err = platform.Load(t)
		return err
	})
	if err != nil || rec.Status != "PROCESSING" {
		return true, err
	}
	for i := rec.Progress.Processed; i < min(rec.Progress.Processed+bulkBatch, len(rec.Rows)); i++ {
		in := rec.input(i)
		probe := &Record{Customer: Customer{CustomerType: in.CustomerType}}
		applyCustomerInput(e, &validate.Errors{}, probe, &in, p)
		s, err := customersSlot.Of(e).KYC.InitialStatus(ctx, &probe.Customer, p)
		if err != nil {
			return false, err
		}
		inputs, initial = append(inputs, in), append(initial, s)
	}
	start, done := rec.Progress.Processed, false
	err = e.Update(ctx, func(t *engine.Txn) error {
		done = false
		var cur bulkJobRecord
		if err := engine.GetJSON(t, tableBulkJobs, id, &cur); err != nil {
			return err
		}
		if cur.Status != "PROCESSING" || cur.Progress.Processed != start {
			return nil // recorded by a concurrent runner
		}
		for k, in := range inputs {
			_, rowErr := createCustomer(t, in, initial[k])
			var pe *engine.Error
			if rowErr != nil && (!errors.As(rowErr, &pe) || pe.Code.Status() >= 500) {
				return rowErr // the store's or a provider's failure: the batch is retried
			}
			cur.Progress.Processed++
			if rowErr == nil {
				cur.Progress.Successful++
				continue
			}
			corr := in.PlatformCustomerID
			if corr == "" {
				corr = "row " + strconv.Itoa(start+k+1)
			}
			re := BulkRowError{CorrelationID: corr, Code: pe.Code, Message: pe.Message}
			if len(pe.Fields) > 0 {
				re.Details = map[string]any{"errors": pe.Fields}
			}
			cur.Errors = append(cur.Errors, re)
			cur.Progress.Failed++
		}
		// A batch that went through clears the job's backoff; the key is
		// the one engine.Handle.DueFailed writes.
		if err := t.Delete(engine.TableDueRetry, tableBulkJobsDue+"\x00"+id); err != nil && !errors.Is(err, engine.ErrNotFound) {
			return err
		}
		if cur.Progress.Processed == len(cur.Rows) {
			done = true
			return finishBulkJob(t, &cur)
		}
		return engine.PutJSON(t, tableBulkJobs, id, cur)
	})
	return done, err
}

// finishBulkJob completes a job whose rows are all processed: COMPLETED
// with BULK_UPLOAD.COMPLETED, or FAILED with BULK_UPLOAD.FAILED when rows
// existed and none succeeded. The rows are dropped from the record.
func finishBulkJob(t *engine.Txn, j *bulkJobRecord) error {
	now := t.Now
	j.Status, j.CompletedAt = "COMPLETED", &now
	event := EventBulkUploadCompleted
	if j.Progress.Total > 0 && j.Progress.Successful == 0 {
		j.Status, event = "FAILED", EventBulkUploadFailed
	}
	j.Rows = nil
	if err := engine.PutJSON(t, tableBulkJobs, j.ID, j); err != nil {
		return err
	}
	if err := t.Delete(tableBulkJobsDue, j.ID); err != nil && !errors.Is(err, engine.ErrNotFound) {
		return err
	}
	return t.Emit(event, j.BulkJob)
}

// resumeBulkJobs runs up to bulkBatchesPerPass batches of each of up to 16
// unfinished jobs and returns how many batches ran. A job whose batch
// fails is retried with backoff and then parked in the dead letters, like
// any due item; it never holds up another job. A job parked in the dead
// letters leaves the due table and stays PROCESSING: an operator decides.
func resumeBulkJobs(e *engine.Handle, ctx context.Context) (int, error) {
	now := e.Now()
	var ids []string
	err := e.View(ctx, func(t *engine.Txn) error {
		return t.Scan(tableBulkJobsDue, engine.ScanOptions{}, func(k string, _ []byte) (bool, error) {
			var r engine.DueRetry
			if err := engine.GetJSON(t, engine.TableDueRetry, tableBulkJobsDue+"\x00"+k, &r); err == nil && r.NextAttemptAt.After(now) {
				return true, nil // backing off
			}
			ids = append(ids, k)
			return len(ids) < 16, nil
		})
	})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, id := range ids {
		for range bulkBatchesPerPass {
			done, err := runBulkBatch(e, ctx, id)
			if ctx.Err() != nil {
				return n, ctx.Err()
			}
			if err != nil {
				e.DueFailed(ctx, tableBulkJobsDue, id, err)
				break
			}
			n++
			if done {
				break
			}
		}
	}
	return n, nil
}

// bulkInput maps one CSV row to a customer request. A row's country fills
// both its address and, for a business, businessInfo.country; individuals
// take fullName and birthDate, businesses the business* columns.
func bulkInput(get func(string) string) CustomerInput {
	in := CustomerInput{CustomerType: CustomerType(get("customerType")), PlatformCustomerID: get("platformCustomerId"),
		UmaAddress: get("umaAddress"), Email: get("email")}
	if in.UmaAddress != "" && !strings.HasPrefix(in.UmaAddress, "$") {
		in.UmaAddress = "$" + in.UmaAddress
	}
	if get("addressLine1") != "" || get("postalCode") != "" || get("country") != "" {
		in.Address = &Address{Line1: get("addressLine1"), Line2: get("addressLine2"), City: get("city"),
			State: get("state"), PostalCode: get("postalCode"), Country: get("country")}
	}
	if in.CustomerType == CustomerBusiness {
		in.BusinessInfo = &BusinessInfo{LegalName: get("businessLegalName"), RegistrationNumber: get("businessRegistrationNumber"),
			TaxID: get("businessTaxId"), Country: get("country"), IncorporatedOn: get("businessIncorporatedOn")}
	} else {
		in.FullName, in.BirthDate = get("fullName"), get("birthDate")
	}
	return in
}

// BulkJob returns an import job: BULK_UPLOAD_JOB_NOT_FOUND when unknown.
func (cs Service) BulkJob(ctx context.Context, id string) (*BulkJob, error) {
	return engine.Run(ctx, cs.e, getBulkJob, id)
}

// getBulkJob is Service.BulkJob's operation.
var getBulkJob = engine.Op[string, *BulkJob, struct{}]{Area: "customers", Name: "BulkJob", Access: engine.Read,
	Decide: func(t *engine.Txn, id *string, _ *struct{}) (*BulkJob, error) {
		var j BulkJob
		if err := engine.GetJSON(t, tableBulkJobs, *id, &j); err != nil {
			return nil, engine.NotFound(err, CodeBulkUploadJobNotFound, "bulk job", *id)
		}
		return &j, nil
	}}
