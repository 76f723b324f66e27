package distribution

import (
	"bytes"
	"context"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/sql/db"
)

// UploadTTL is how long a staged upload lives.
const UploadTTL = core.SourceUploadExpiryHours * time.Hour

// UploadProgress is upload_gift_source_chunk's answer.
type UploadProgress struct {
	UploadID      string `json:"uploadId" jsonschema:"the upload"`
	Complete      bool   `json:"complete" jsonschema:"every part arrived: pass uploadId to save_recipient_import"`
	ReceivedParts int    `json:"receivedParts" jsonschema:"parts received so far"`
	PartCount     int    `json:"partCount" jsonschema:"parts expected"`
	ReceivedBytes int64  `json:"receivedBytes" jsonschema:"bytes received so far"`
	TotalBytes    int64  `json:"totalBytes" jsonschema:"bytes expected"`
	ExpiresAt     string `json:"expiresAt" jsonschema:"when the staged upload is dropped (RFC 3339)"`
	// RetryAfterMs is set when the last part arrived before the others:
	// resend it after this long until complete is true.
	RetryAfterMs *int64 `json:"retryAfterMs,omitempty" jsonschema:"the last part came before the others: resend it after this many milliseconds"`
}

// UploadSourceChunk stages one part of a chunked upload of a source CSV
// for campaign campaignID. A part resent with the same bytes is accepted
// again; with other bytes it is refused. A workspace stages at most
// MaxStagedUploads uploads or MaxStagedBytes at once; uploads expire after
// UploadTTL. It returns VALIDATION_ERROR naming uploadId (another
// campaign's), partIndex, partCount, totalBytes (other metadata than the
// upload's first part, or parts that do not add up to it, which drops the
// upload) or data (bad base64, too large, other bytes than before);
// UPLOAD_CAPACITY; DEMO_LIMITED; NOT_FOUND naming id; CAMPAIGN_COMPLETED;
// or the codes of Authorize (ActAddPeople).
func (s *Service) UploadSourceChunk(ctx context.Context, p core.Principal, campaignID string, in Chunk) (UploadProgress, error) {
	if err := authorizeImport(p); err != nil {
		return UploadProgress{}, err
	}
	data, err := in.decode()
	if err != nil {
		return UploadProgress{}, err
	}
	if _, err := s.openCampaign(ctx, p, campaignID); err != nil {
		return UploadProgress{}, err
	}
	return s.stagePart(ctx, p, campaignID, in, data)
}

// stagePart stages part in (its bytes data, decoded and checked) of an
// upload for campaignID, an open campaign of p's workspace, in one transaction under
// the workspace's upload lock.
func (s *Service) stagePart(ctx context.Context, p core.Principal, campaignID string, in Chunk, data []byte) (UploadProgress, error) {
	now := s.Clock.Now()
	var (
		out     UploadProgress
		refusal error // refused after the upload was dropped (committed)
	)
	err := s.InTx(ctx, func(q *db.Queries) error {
		ws := p.WorkspaceID
		if err := q.SourceUploadLockWorkspace(ctx, ws); err != nil {
			return core.Internal(err)
		}
		if err := q.SourceUploadsDeleteExpired(ctx, db.SourceUploadsDeleteExpiredParams{WorkspaceID: ws, Now: now}); err != nil {
			return core.Internal(err)
		}
		up, err := q.SourceUploadGet(ctx, db.SourceUploadGetParams{WorkspaceID: ws, ID: in.UploadID})
		switch {
		case core.IsNoRows(err):
			if up, err = s.stage(ctx, q, ws, campaignID, in, now); err != nil {
				return err
			}
		case err != nil:
			return core.Internal(err)
		}
		if err := sameUpload(up, campaignID, in); err != nil {
			return err
		}
		prev, err := q.SourceUploadPartGet(ctx, db.SourceUploadPartGetParams{WorkspaceID: ws, UploadID: up.ID, PartIndex: int32(in.PartIndex)})
		switch {
		case err == nil && !bytes.Equal(prev, data):
			return core.Invalid("data", "part %d was already received with other bytes; resend a part with exactly the same bytes, or start again with a new uploadId", in.PartIndex)
		case core.IsNoRows(err):
			if err := q.SourceUploadPartInsert(ctx, db.SourceUploadPartInsertParams{WorkspaceID: ws, UploadID: up.ID, PartIndex: int32(in.PartIndex), Data: data}); err != nil {
				return core.Internal(err)
			}
		case err != nil:
			return core.Internal(err)
		}
		got, err := q.SourceUploadProgress(ctx, db.SourceUploadProgressParams{WorkspaceID: ws, UploadID: up.ID})
		if err != nil {
			return core.Internal(err)
		}
		out = UploadProgress{UploadID: up.ID, ReceivedParts: int(got.Parts), PartCount: int(up.PartCount), ReceivedBytes: got.Bytes,
			TotalBytes: up.TotalBytes, ExpiresAt: up.ExpiresAt.UTC().Format(time.RFC3339)}
		if got.Bytes > up.TotalBytes || (int(got.Parts) == out.PartCount && got.Bytes != up.TotalBytes) {
			refusal = core.Invalid("totalBytes", "is %d but the parts hold %d bytes; the upload was dropped: start again with a new uploadId", up.TotalBytes, got.Bytes)
			return core.AsCoreError(q.SourceUploadDelete(ctx, db.SourceUploadDeleteParams{WorkspaceID: ws, ID: up.ID}))
		}
		switch {
		case out.ReceivedParts == out.PartCount:
			out.Complete = true
			if up.CompletedAt == nil {
				return core.AsCoreError(q.SourceUploadComplete(ctx, db.SourceUploadCompleteParams{WorkspaceID: ws, ID: up.ID, CompletedAt: &now}))
			}
		case in.PartIndex == out.PartCount-1:
			wait := int64(LastPartRetryMs)
			out.RetryAfterMs = &wait
		}
		return nil
	})
	if err != nil {
		return UploadProgress{}, err
	}
	if refusal != nil {
		return UploadProgress{}, refusal
	}
	return out, nil
}

// stage records a new upload, within the workspace's capacity.
func (s *Service) stage(ctx context.Context, q *db.Queries, workspaceID, campaignID string, in Chunk, now time.Time) (db.SourceUpload, error) {
	held, err := q.SourceUploadCapacity(ctx, workspaceID)
	if err != nil {
		return db.SourceUpload{}, core.Internal(err)
	}
	if held.Uploads >= MaxStagedUploads || held.Bytes+in.TotalBytes > MaxStagedBytes {
		e := core.Errorf(core.CodeUploadCapacity,
			"the workspace already stages %d uploads of %d bytes (at most %d uploads or %d bytes at once); finish or import those first, or wait retryAfterMs until the oldest expires",
			held.Uploads, held.Bytes, MaxStagedUploads, MaxStagedBytes)
		e.RetryAfterMs = max(held.FirstExpiry.Sub(now).Milliseconds(), 1)
		return db.SourceUpload{}, e
	}
	up := db.SourceUpload{WorkspaceID: workspaceID, ID: in.UploadID, CampaignID: campaignID, PartCount: int32(in.PartCount),
		TotalBytes: in.TotalBytes, CreatedAt: now, ExpiresAt: now.Add(UploadTTL)}
	err = q.SourceUploadInsert(ctx, db.SourceUploadInsertParams{WorkspaceID: up.WorkspaceID, ID: up.ID, CampaignID: up.CampaignID,
		PartCount: up.PartCount, TotalBytes: up.TotalBytes, CreatedAt: up.CreatedAt, ExpiresAt: up.ExpiresAt})
	if err != nil {
		return db.SourceUpload{}, core.Internal(err)
	}
	return up, nil
}

// sameUpload checks a part's metadata against its upload's.
func sameUpload(up db.SourceUpload, campaignID string, in Chunk) error {
	switch {
	case up.CampaignID != campaignID:
		return core.Invalid("uploadId", "is an upload of another campaign; choose a new uploadId")
	case int(up.PartCount) != in.PartCount:
		return core.Invalid("partCount", "is %d but this upload started with %d; resend with the same metadata", in.PartCount, up.PartCount)
	case up.TotalBytes != in.TotalBytes:
		return core.Invalid("totalBytes", "is %d but this upload started with %d; resend with the same metadata", in.TotalBytes, up.TotalBytes)
	}
	return nil
}

// authorizeImport refuses what cannot bring people in: callers who may not
// add people, and demo workspaces (DEMO_LIMITED: no list uploads).
func authorizeImport(p core.Principal) error {
	if err := core.Authorize(p, core.ActAddPeople, ""); err != nil {
		return err
	}
	if p.IsDemo {
		return core.Errorf(core.CodeDemoLimited, "a demo workspace cannot upload or import lists")
	}
	return nil
}

// openCampaign reads campaign campaignID, refusing a completed one.
func (s *Service) openCampaign(ctx context.Context, p core.Principal, campaignID string) (campaign.Campaign, error) {
	c, err := s.Campaigns.LookupCampaign(ctx, p, campaignID)
	if err != nil {
		return campaign.Campaign{}, err
	}
	if c.Status == campaign.StatusCompleted {
		return campaign.Campaign{}, &core.Error{Code: core.CodeCampaignCompleted, URL: s.Config.CampaignURL(c.ID),
			Message: "campaign " + c.ID + " is completed; import into a new campaign"}
	}
	return c, nil
}
