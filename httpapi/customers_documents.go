package httpapi

// The handlers of /documents: identity and business documents of customers
// and beneficial owners, uploaded as multipart/form-data (a "file" part and
// text fields naming the holder, type, side, country, number and issuing
// authority) under Config.MaxUploadBytes. These bodies skip the JSON checks
// and the brand translation: a file's bytes reach the engine as sent.

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/validate"
)

// form is a parsed multipart/form-data body: its text fields and its one
// file part (named "file").
type form struct {
	fields   map[string]string
	file     []byte
	fileName string
}

// errMalformedMultipart answers a multipart body that does not parse (the
// parser's own message names Go internals, not the request).
var errMalformedMultipart = payments.Errorf(payments.CodeInvalidInput,
	"malformed multipart/form-data body: every part needs headers and must end with the boundary of the Content-Type")

// multipart parses the buffered body as multipart/form-data.
func (r *request) multipart() (*form, error) {
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		var fe validate.Errors
		fe.Add("file", nil, "the body must be multipart/form-data with a file part")
		return nil, payments.Invalid(fe)
	}
	mr := multipart.NewReader(bytes.NewReader(r.body), params["boundary"])
	f := &form{fields: map[string]string{}}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return f, nil
		}
		if err != nil {
			return nil, errMalformedMultipart
		}
		b, err := io.ReadAll(part)
		if err != nil {
			return nil, errMalformedMultipart
		}
		if part.FormName() == "file" {
			f.file, f.fileName = b, part.FileName()
		} else {
			f.fields[part.FormName()] = string(b)
		}
	}
}

// upload is the engine's DocumentUpload from the form's fields and file; the
// engine validates them, naming each bad member.
func (f *form) upload() payments.DocumentUpload {
	return payments.DocumentUpload{
		DocumentHolder: f.fields["documentHolder"], DocumentType: f.fields["documentType"], Side: f.fields["side"],
		Country: f.fields["country"], DocumentNumber: f.fields["documentNumber"],
		IssuingAuthority: f.fields["issuingAuthority"], FileName: f.fileName, Content: f.file,
	}
}

// uploadDocument is POST /documents: 201 with the document;
// DOCUMENT_ALREADY_EXISTS when the holder already has one of that type and
// side (replace it with PUT), DOCUMENT_HOLDER_NOT_FOUND for an unknown
// holder.
func uploadDocument(r *request) (int, any, error) {
	f, err := r.multipart()
	if err != nil {
		return fail(err)
	}
	d, err := r.eng.Documents.Upload(r.ctx(), f.upload())
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusCreated, d)
}

// replaceDocument is PUT /documents/{documentId}: the file and metadata
// replaced, the holder kept; 200 with the document.
func replaceDocument(r *request) (int, any, error) {
	f, err := r.multipart()
	if err != nil {
		return fail(err)
	}
	d, err := r.eng.Documents.Replace(r.ctx(), r.path("documentId"), f.upload())
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, d)
}

// listDocuments is GET /documents, oldest first, optionally of one
// documentHolder, paged by limit and cursor.
func listDocuments(r *request) (int, any, error) {
	q := r.query()
	holder := q.str("documentHolder")
	p := q.page(false)
	if err := q.err(); err != nil {
		return fail(err)
	}
	page, err := r.eng.Documents.List(r.ctx(), holder, p)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, page)
}

// getDocument is GET /documents/{documentId}: the document's record (not its
// file).
func getDocument(r *request) (int, any, error) {
	d, err := r.eng.Documents.Get(r.ctx(), r.path("documentId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, d)
}

// deleteDocument is DELETE /documents/{documentId}: 204; CONFLICT once the
// holder's verification is under review or decided, as the document is then
// evidence.
func deleteDocument(r *request) (int, any, error) {
	if err := r.eng.Documents.Delete(r.ctx(), r.path("documentId")); err != nil {
		return fail(err)
	}
	return noContent()
}
