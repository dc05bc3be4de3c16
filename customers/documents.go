package customers

import (
	"bytes"
	"context"
	"iter"
	"strings"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/validate"
)

// Document tables: metadata by id, file bytes by id, and the unique index
// "<holder>|<documentType>|<side>" -> id (one document of a type and side
// per holder; PUT replaces it).
const (
	tableDocuments         = "documents"
	tableDocumentFiles     = "document_files"
	tableDocumentsByHolder = "documents_by_holder"
)

// MaxDocumentBytes caps one uploaded file (413 PAYLOAD_TOO_LARGE above it).
// The file is stored in the same transaction as its record, so the cap
// also bounds what one transaction writes.
const MaxDocumentBytes = 10 << 20

// Document is an uploaded verification document. Its file is kept apart
// (tableDocumentFiles), so lists and views never load the bytes. A holder
// has at most one document per (documentType, side).
type Document struct {
	ID               string    `json:"id"`
	DocumentHolder   string    `json:"documentHolder"`
	DocumentType     string    `json:"documentType"`
	Side             string    `json:"side,omitempty"`
	Country          string    `json:"country"`
	DocumentNumber   string    `json:"documentNumber,omitempty"`
	IssuingAuthority string    `json:"issuingAuthority,omitempty"`
	FileName         string    `json:"fileName"`
	CreatedAt        time.Time `json:"createdAt"`
	UpdatedAt        time.Time `json:"updatedAt"`
}

// DocumentUpload is an upload (POST) or replacement (PUT; DocumentHolder is
// then ignored). Content is the file; its type is sniffed from its bytes.
type DocumentUpload struct {
	DocumentHolder   string
	DocumentType     string
	Side             string
	Country          string
	DocumentNumber   string
	IssuingAuthority string
	FileName         string
	Content          []byte
}

// sniff returns the media type of an accepted file (JPEG, PNG or PDF), or "".
func sniff(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF}):
		return "image/jpeg"
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(b, []byte("%PDF-")):
		return "application/pdf"
	}
	return ""
}

// check records every invalid member of an upload in fe and returns the
// file's media type ("" when it is none of JPEG, PNG or PDF). The type is
// sniffed from the bytes, never taken from the file name or a header.
func (in *DocumentUpload) check(fe *validate.Errors) string {
	if fe.Required("documentType", in.DocumentType) {
		fe.Enum("documentType", in.DocumentType, DocumentTypes...)
	}
	fe.Enum("side", in.Side, "FRONT", "BACK")
	if fe.Required("country", in.Country) {
		fe.Country("country", in.Country)
	}
	fe.MaxLen("fileName", in.FileName, 255)
	kind := sniff(in.Content)
	if len(in.Content) == 0 {
		fe.Add("file", nil, "file is required")
	} else if kind == "" {
		fe.Add("file", &validate.Constraint{Enum: []string{"image/jpeg", "image/png", "application/pdf"}}, "file must be a JPEG, PNG or PDF")
	}
	return kind
}

// docKey is a document's key in the unique index of tableDocumentsByHolder.
func docKey(holder, typ, side string) string { return holder + "|" + typ + "|" + side }

// Upload stores a document for a customer or beneficial owner:
// DOCUMENT_HOLDER_NOT_FOUND for an unknown holder (or a deleted customer),
// DOCUMENT_ALREADY_EXISTS when the holder has one of that type and side
// (replace it with PUT), PAYLOAD_TOO_LARGE above MaxDocumentBytes, and
// INVALID_INPUT for every invalid member. The record and the file are
// written in one transaction.
func (ds Documents) Upload(ctx context.Context, in DocumentUpload) (*Document, error) {
	return engine.Run(ctx, ds.e, uploadDocument, in)
}

// checkSize refuses a document over MaxDocumentBytes (BODY_TOO_LARGE).
func checkSize(in *DocumentUpload) error {
	if len(in.Content) > MaxDocumentBytes {
		return engine.Errorf(engine.CodeBodyTooLarge, "documents are limited to %d bytes", MaxDocumentBytes)
	}
	return nil
}

// uploadDocument is Documents.Upload's operation.
var uploadDocument = engine.Op[DocumentUpload, *Document, struct{}]{Area: "customers", Name: "Documents.Upload",
	Validate: checkSize,
	Decide: func(t *engine.Txn, in *DocumentUpload, _ *struct{}) (*Document, error) {
		var fe validate.Errors
		fe.Required("documentHolder", in.DocumentHolder)
		kind := in.check(&fe)
		if err := engine.Invalid(fe.Err()); err != nil {
			return nil, err
		}
		if err := requireHolder(t, in.DocumentHolder); err != nil {
			return nil, err
		}
		id := t.NewID("Document")
		d := &Document{ID: id, DocumentHolder: in.DocumentHolder, CreatedAt: t.Now}
		d.fill(*in, kind, t.Now)
		if err := engine.Claim(t, tableDocumentsByHolder, docKey(d.DocumentHolder, d.DocumentType, d.Side), id,
			engine.Errorf(CodeDocumentAlreadyExists, "%s already has a %s document; replace it with PUT /documents/{documentId}", d.DocumentHolder, d.DocumentType)); err != nil {
			return nil, err
		}
		if err := saveDocument(t, d, in.Content); err != nil {
			return nil, err
		}
		return d, nil
	}}

// Replace replaces a document's file and metadata; the holder stays.
// NOT_FOUND for an unknown document, DOCUMENT_ALREADY_EXISTS when the new
// type and side are another document's, PAYLOAD_TOO_LARGE and
// INVALID_INPUT as for Upload. Unlike Delete, it does not look at the
// holder's verification status.
func (ds Documents) Replace(ctx context.Context, id string, in DocumentUpload) (*Document, error) {
	return engine.Run(ctx, ds.e, replaceDocument, documentReplacement{id, in})
}

// documentReplacement is a Documents.Replace request.
type documentReplacement struct {
	id string
	in DocumentUpload
}

// replaceDocument is Documents.Replace's operation.
var replaceDocument = engine.Op[documentReplacement, *Document, struct{}]{Area: "customers", Name: "Documents.Replace",
	Fingerprint: func(r *documentReplacement) any { return []any{r.id, r.in} },
	Validate:    func(r *documentReplacement) error { return checkSize(&r.in) },
	Decide: func(t *engine.Txn, r *documentReplacement, _ *struct{}) (*Document, error) {
		id, in := r.id, r.in
		d, err := document(t, id)
		if err != nil {
			return nil, err
		}
		var fe validate.Errors
		kind := in.check(&fe)
		if err := engine.Invalid(fe.Err()); err != nil {
			return nil, err
		}
		oldKey := docKey(d.DocumentHolder, d.DocumentType, d.Side)
		d.fill(in, kind, t.Now)
		if newKey := docKey(d.DocumentHolder, d.DocumentType, d.Side); newKey != oldKey {
			if err := t.Delete(tableDocumentsByHolder, oldKey); err != nil {
				return nil, err
			}
			if err := engine.Claim(t, tableDocumentsByHolder, newKey, id, engine.Errorf(CodeDocumentAlreadyExists, "%s already has a %s document", d.DocumentHolder, d.DocumentType)); err != nil {
				return nil, err
			}
		}
		if err := saveDocument(t, d, in.Content); err != nil {
			return nil, err
		}
		return d, nil
	}}

// fill copies an upload's metadata onto d, naming the file after its type
// when the upload gave no name.
func (d *Document) fill(in DocumentUpload, kind string, now time.Time) {
	d.DocumentType, d.Side, d.Country = in.DocumentType, in.Side, in.Country
	d.DocumentNumber, d.IssuingAuthority, d.FileName = in.DocumentNumber, in.IssuingAuthority, in.FileName
	d.UpdatedAt = now
	if d.FileName == "" {
		d.FileName = strings.ToLower(d.DocumentType) + map[string]string{"image/jpeg": ".jpg", "image/png": ".png", "application/pdf": ".pdf"}[kind]
	}
}

// saveDocument writes d and its file.
func saveDocument(t *engine.Txn, d *Document, content []byte) error {
	if err := engine.PutJSON(t, tableDocuments, d.ID, d); err != nil {
		return err
	}
	return t.Put(tableDocumentFiles, d.ID, content)
}

// requireHolder checks that a document holder (a customer that is not
// deleted, or a beneficial owner) exists: DOCUMENT_HOLDER_NOT_FOUND
// otherwise, told apart by the id's prefix.
func requireHolder(t *engine.Txn, holder string) error {
	var err error
	switch {
	case strings.HasPrefix(holder, "Customer:"):
		_, err = Live(t, holder)
	case strings.HasPrefix(holder, "BeneficialOwner:"):
		_, err = owner(t, holder)
	default:
		err = engine.ErrNotFound
	}
	if engine.CodeOf(err) == engine.CodeCustomerNotFound || engine.CodeOf(err) == engine.CodeNotFound {
		return engine.Errorf(CodeDocumentHolderNotFound, "document holder %s not found", holder)
	}
	return err
}

// document loads a document's metadata: NOT_FOUND when absent.
func document(t *engine.Txn, id string) (*Document, error) {
	var d Document
	if err := engine.GetJSON(t, tableDocuments, id, &d); err != nil {
		return nil, engine.NotFound(err, engine.CodeNotFound, "document", id)
	}
	return &d, nil
}

// documentTypes lists the document types a holder has uploaded, read from
// the unique index alone (no record or file is loaded).
func documentTypes(t *engine.Txn, holder string) ([]string, error) {
	var out []string
	err := t.Scan(tableDocumentsByHolder, engine.ScanOptions{Prefix: holder + "|"}, func(k string, _ []byte) (bool, error) {
		parts := strings.Split(k, "|")
		out = append(out, parts[len(parts)-2])
		return true, nil
	})
	return out, err
}

// Get returns a document's metadata (NOT_FOUND for an unknown id); the file
// itself is not served.
func (ds Documents) Get(ctx context.Context, id string) (*Document, error) {
	return engine.Run(ctx, ds.e, getDocument, id)
}

// getDocument is Documents.Get's operation.
var getDocument = engine.Op[string, *Document, struct{}]{Area: "customers", Name: "Documents.Get", Access: engine.Read,
	Decide: func(t *engine.Txn, id *string, _ *struct{}) (*Document, error) { return document(t, *id) }}

// List lists documents, oldest first, optionally of one holder. A
// malformed cursor or limit is INVALID_INPUT.
func (ds Documents) List(ctx context.Context, holder string, p engine.ListParams) (engine.Page[Document], error) {
	return engine.Run(ctx, ds.e, listDocuments, documentQuery{holder, p})
}

// documentQuery is a Documents.List request.
type documentQuery struct {
	holder string
	p      engine.ListParams
}

// listDocuments is Documents.List's operation.
var listDocuments = engine.Op[documentQuery, engine.Page[Document], struct{}]{Area: "customers", Name: "Documents.List", Access: engine.Read,
	Decide: func(t *engine.Txn, in *documentQuery, _ *struct{}) (engine.Page[Document], error) {
		return engine.List(t, engine.ListQuery[Document]{Table: tableDocuments, Index: engine.IxAll}.Narrowest([2]string{ixHolder, in.holder}), in.p)
	}}

// ListAll walks every page of List from p on (engine.All):
// each item with a nil error, or one pair with a page's error; breaking
// out of the loop reads no further page.
func (ds Documents) ListAll(ctx context.Context, holder string, p engine.ListParams) iter.Seq2[Document, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[Document], error) {
		return ds.List(ctx, holder, p)
	})
}

// Delete removes a document with its file. A document of a customer whose
// verification is under review or decided (any status but UNVERIFIED) is
// CONFLICT: it is evidence. NOT_FOUND for an unknown document.
func (ds Documents) Delete(ctx context.Context, id string) error {
	_, err := engine.Run(ctx, ds.e, deleteDocument, id)
	return err
}

// deleteDocument is Documents.Delete's operation.
var deleteDocument = engine.Op[string, struct{}, struct{}]{Area: "customers", Name: "Documents.Delete",
	Decide: func(t *engine.Txn, id *string, _ *struct{}) (struct{}, error) {
		d, err := document(t, *id)
		if err != nil {
			return struct{}{}, err
		}
		if strings.HasPrefix(d.DocumentHolder, "Customer:") {
			c, err := Get(t, d.DocumentHolder)
			if err != nil {
				return struct{}{}, err
			}
			if c.Status() != KYCUnverified {
				return struct{}{}, engine.Errorf(engine.CodeConflict, "document %s was submitted for verification and cannot be deleted", *id)
			}
		}
		for _, k := range [][2]string{{tableDocumentsByHolder, docKey(d.DocumentHolder, d.DocumentType, d.Side)}, {tableDocuments, *id}, {tableDocumentFiles, *id}} {
			if err := t.Delete(k[0], k[1]); err != nil {
				return struct{}{}, err
			}
		}
		return struct{}{}, nil
	}}

// Documents stores verification documents for customers and beneficial
// owners: the facade's eng.Documents (payments.Documents), a value over the
// engine's handle, safe for concurrent use. Its write operations run
// through engine.Once like every other (idempotent by key).
type Documents struct{ e *engine.Handle }

// NewDocuments returns the Documents group of h (payments.New binds it to
// every handle).
func NewDocuments(h *engine.Handle) Documents { return Documents{h} }
