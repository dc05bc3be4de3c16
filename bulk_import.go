package payments

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/validate"
)

// tableBulkJobs holds customer import jobs by id.
const tableBulkJobs = "bulk_jobs"

// BulkJob is a customer CSV import and its outcome (reference
// BulkCustomerImportJob). Each row is created in its own transaction, so a
// bad row never blocks the good ones and no row is half-written.
type BulkJob struct {
	ID          string         `json:"id"`
	Status      string         `json:"status"` // PENDING, PROCESSING, COMPLETED, FAILED
	Progress    BulkProgress   `json:"progress"`
	Errors      []BulkRowError `json:"errors"`
	CreatedAt   time.Time      `json:"-"`
	CompletedAt *time.Time     `json:"completedAt,omitempty"`
}

// BulkProgress counts rows.
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
	Code          Code           `json:"code"`
	Message       string         `json:"message"`
	Details       map[string]any `json:"details,omitempty"`
}

// bulkColumns are the reference's CSV columns.
var bulkColumns = []string{"umaAddress", "platformCustomerId", "customerType", "fullName", "birthDate", "addressLine1",
	"addressLine2", "city", "state", "postalCode", "country", "platformAccountId", "description", "email",
	"businessLegalName", "businessRegistrationNumber", "businessTaxId", "businessIncorporatedOn"}

// Import reads a CSV of customers (the reference's columns; a
// umaAddress without its leading "$" gets one; businesses also need the
// businessIncorporatedOn column, which the reference lacks) and creates each row as
// CreateCustomer would. It processes the file before returning, so the job
// it returns is already finished; the job stays readable with BulkJob. A
// missing or empty file, a file that is not CSV, or one whose header lacks
// customerType, is INVALID_INPUT naming the field file.
func (cs Customers) Import(ctx context.Context, file []byte) (*BulkJob, error) {
	e := cs.e
	refuse := func(format string, args ...any) error {
		var fe validate.Errors
		fe.Add("file", nil, format, args...)
		return Invalid(fe)
	}
	if len(file) == 0 {
		return nil, refuse("file is required: a CSV of customers with a header row")
	}
	rd := csv.NewReader(bytes.NewReader(file))
	rd.FieldsPerRecord = -1
	head, err := rd.Read()
	if err != nil {
		return nil, refuse("the file must be a CSV with a header row")
	}
	col := map[string]int{}
	for i, h := range head {
		col[strings.TrimSpace(h)] = i
	}
	if _, ok := col["customerType"]; !ok {
		return nil, refuse("the CSV header must name the customerType column (columns: %s)", strings.Join(bulkColumns, ", "))
	}
	var rows [][]string
	for {
		rec, err := rd.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, refuse("malformed CSV: %v", err)
		}
		rows = append(rows, rec)
	}
	var job *BulkJob
	err = once(ctx, e, file, &job, func(t *txn) error {
		id := t.newID("BulkJob")
		job = &BulkJob{ID: id, Status: "PROCESSING", Progress: BulkProgress{Total: len(rows)}, Errors: []BulkRowError{}, CreatedAt: t.now}
		if err := insertJSON(t, tableBulkJobs, id, bulkJobRecord{BulkJob: *job, Columns: col, Rows: rows}); err != nil {
			return err
		}
		return t.Put(tableBulkJobsDue, id, nil)
	})
	if err != nil {
		return nil, err
	}
	// The job is finished before answering; a retried import (which
	// replays the answer above) or the due worker finishes one a crash
	// interrupted.
	if err := e.runBulkJob(ctx, job.ID); err != nil {
		return nil, err
	}
	return job, nil
}

// bulkJobRecord is a job as stored, with the rows still to import.
type bulkJobRecord struct {
	BulkJob
	Columns map[string]int `json:"columns"`
	Rows    [][]string     `json:"rows"`
}

// tableBulkJobsDue lists the jobs not finished yet.
const tableBulkJobsDue = "bulk_jobs_due"

// runBulkJob imports the rows of a job from where it stands. Each row is
// created through an idempotency key of its own (the job and the row
// number), so a row that committed before a crash is replayed, never
// created twice; the job's progress is then recorded, and the last row
// completes the job with its event.
func (e *Engine) runBulkJob(ctx context.Context, id string) error {
	var rec bulkJobRecord
	if err := e.view(ctx, func(t *txn) error { return getJSON(t, tableBulkJobs, id, &rec) }); err != nil {
		return err
	}
	for i := rec.Progress.Processed; i < len(rec.Rows); i++ {
		row := rec.Rows[i]
		get := func(name string) string {
			if j, ok := rec.Columns[name]; ok && j < len(row) {
				return strings.TrimSpace(row[j])
			}
			return ""
		}
		in := bulkInput(get)
		h, err := e.WithIdempotency(Idempotency{Scope: "bulk-import", Key: id + "#" + strconv.Itoa(i)})
		if err != nil {
			return err
		}
		_, rowErr := h.Customers.Create(ctx, in)
		if rowErr != nil && CodeOf(rowErr).Status() >= 500 {
			return rowErr
		}
		err = e.update(ctx, func(t *txn) error {
			var cur bulkJobRecord
			if err := getJSON(t, tableBulkJobs, id, &cur); err != nil {
				return err
			}
			if cur.Progress.Processed != i {
				return nil // recorded by a concurrent runner
			}
			cur.Progress.Processed++
			if rowErr != nil {
				corr := in.PlatformCustomerID
				if corr == "" {
					corr = "row " + strconv.Itoa(i+1)
				}
				re := BulkRowError{CorrelationID: corr, Code: CodeOf(rowErr), Message: MessageOf(rowErr)}
				var pe *Error
				if errors.As(rowErr, &pe) && len(pe.Fields) > 0 {
					re.Details = map[string]any{"errors": pe.Fields}
				}
				cur.Errors = append(cur.Errors, re)
				cur.Progress.Failed++
			} else {
				cur.Progress.Successful++
			}
			if cur.Progress.Processed == len(cur.Rows) {
				return t.finishBulkJob(&cur)
			}
			return putJSON(t, tableBulkJobs, id, cur)
		})
		if err != nil {
			return err
		}
	}
	if len(rec.Rows) == 0 && rec.Status == "PROCESSING" {
		return e.update(ctx, func(t *txn) error {
			var cur bulkJobRecord
			if err := getJSON(t, tableBulkJobs, id, &cur); err != nil || cur.Status != "PROCESSING" {
				return err
			}
			return t.finishBulkJob(&cur)
		})
	}
	return nil
}

// finishBulkJob completes a job whose rows are all processed.
func (t *txn) finishBulkJob(j *bulkJobRecord) error {
	now := t.now
	j.Status, j.CompletedAt = "COMPLETED", &now
	event := EventType("BULK_UPLOAD.COMPLETED")
	if j.Progress.Total > 0 && j.Progress.Successful == 0 {
		j.Status, event = "FAILED", "BULK_UPLOAD.FAILED"
	}
	j.Rows = nil
	if err := putJSON(t, tableBulkJobs, j.ID, j); err != nil {
		return err
	}
	if err := t.Delete(tableBulkJobsDue, j.ID); err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	return t.emit(event, j.BulkJob)
}

// resumeBulkJobs finishes the jobs a crash interrupted.
func (e *Engine) resumeBulkJobs(ctx context.Context) (int, error) {
	var ids []string
	err := e.view(ctx, func(t *txn) error {
		return t.Scan(tableBulkJobsDue, ScanOptions{}, func(k string, _ []byte) (bool, error) {
			ids = append(ids, k)
			return len(ids) < 16, nil
		})
	})
	for _, id := range ids {
		if err := e.runBulkJob(ctx, id); err != nil {
			return 0, err
		}
	}
	return len(ids), err
}

// bulkInput maps one CSV row to a customer request.
func bulkInput(get func(string) string) CustomerInput {
	in := CustomerInput{CustomerType: CustomerType(get("customerType")), PlatformCustomerID: get("platformCustomerId"),
		UmaAddress: get("umaAddress"), Email: get("email")}
	if in.UmaAddress != "" && !strings.HasPrefix(in.UmaAddress, "$") {
		in.UmaAddress = "$" + in.UmaAddress
	}
	if get("addressLine1") != "" || get("postalCode") != "" || get("country") != "" {
		in.Address = &customers.Address{Line1: get("addressLine1"), Line2: get("addressLine2"), City: get("city"),
			State: get("state"), PostalCode: get("postalCode"), Country: get("country")}
	}
	if in.CustomerType == CustomerBusiness {
		in.BusinessInfo = &customers.BusinessInfo{LegalName: get("businessLegalName"), RegistrationNumber: get("businessRegistrationNumber"),
			TaxID: get("businessTaxId"), Country: get("country"), IncorporatedOn: get("businessIncorporatedOn")}
	} else {
		in.FullName, in.BirthDate = get("fullName"), get("birthDate")
	}
	return in
}

// BulkJob returns an import job: BULK_UPLOAD_JOB_NOT_FOUND when unknown.
func (cs Customers) BulkJob(ctx context.Context, id string) (*BulkJob, error) {
	e := cs.e
	var j BulkJob
	err := e.view(ctx, func(t *txn) error { return getJSON(t, tableBulkJobs, id, &j) })
	if err != nil {
		return nil, notFound(err, CodeBulkUploadJobNotFound, "bulk job", id)
	}
	return &j, nil
}
