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
)

// TableBulkJobs holds customer import jobs by id.
const TableBulkJobs = "bulk_jobs"

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

// ImportCustomers reads a CSV of customers (the reference's columns; a
// umaAddress without its leading "$" gets one; businesses also need the
// businessIncorporatedOn column, which the reference lacks) and creates each row as
// CreateCustomer would. It processes the file before returning, so the job
// it returns is already finished; the job stays readable with BulkJob. A
// file that is not CSV, or lacks customerType, is INVALID_INPUT.
func (e *Engine) ImportCustomers(ctx context.Context, file []byte) (*BulkJob, error) {
	rd := csv.NewReader(bytes.NewReader(file))
	rd.FieldsPerRecord = -1
	head, err := rd.Read()
	if err != nil {
		return nil, Errorf(CodeInvalidInput, "the file must be a CSV with a header row")
	}
	col := map[string]int{}
	for i, h := range head {
		col[strings.TrimSpace(h)] = i
	}
	if _, ok := col["customerType"]; !ok {
		return nil, Errorf(CodeInvalidInput, "the CSV header must name the customerType column (columns: %s)", strings.Join(bulkColumns, ", "))
	}
	var rows [][]string
	for {
		rec, err := rd.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, Errorf(CodeInvalidInput, "malformed CSV: %v", err)
		}
		rows = append(rows, rec)
	}
	id, err := e.newID("BulkJob")
	if err != nil {
		return nil, err
	}
	job := &BulkJob{ID: id, Status: "PROCESSING", Progress: BulkProgress{Total: len(rows)}, Errors: []BulkRowError{}, CreatedAt: e.Now()}
	if err := e.update(ctx, func(t *txn) error { return insertJSON(t, TableBulkJobs, id, job) }); err != nil {
		return nil, err
	}
	for i, rec := range rows {
		get := func(name string) string {
			if j, ok := col[name]; ok && j < len(rec) {
				return strings.TrimSpace(rec[j])
			}
			return ""
		}
		in := bulkInput(get)
		job.Progress.Processed++
		if _, err := e.CreateCustomer(ctx, in); err != nil {
			if CodeOf(err).Status() >= 500 {
				return nil, err
			}
			corr := in.PlatformCustomerID
			if corr == "" {
				corr = "row " + strconv.Itoa(i+1)
			}
			re := BulkRowError{CorrelationID: corr, Code: CodeOf(err), Message: MessageOf(err)}
			var pe *Error
			if errors.As(err, &pe) && len(pe.Fields) > 0 {
				re.Details = map[string]any{"errors": pe.Fields}
			}
			job.Errors = append(job.Errors, re)
			job.Progress.Failed++
			continue
		}
		job.Progress.Successful++
	}
	now := e.Now()
	job.Status, job.CompletedAt = "COMPLETED", &now
	event := "BULK_UPLOAD.COMPLETED"
	if job.Progress.Total > 0 && job.Progress.Successful == 0 {
		job.Status, event = "FAILED", "BULK_UPLOAD.FAILED"
	}
	err = e.update(ctx, func(t *txn) error {
		if err := putJSON(t, TableBulkJobs, id, job); err != nil {
			return err
		}
		return t.emit(event, job)
	})
	return job, err
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
func (e *Engine) BulkJob(ctx context.Context, id string) (*BulkJob, error) {
	var j BulkJob
	err := e.view(ctx, func(t *txn) error { return getJSON(t, TableBulkJobs, id, &j) })
	if err != nil {
		return nil, notFound(err, CodeBulkUploadJobNotFound, "bulk job", id)
	}
	return &j, nil
}
