// Package v1 is an example of union markers in Go API types (KEP-1027).
// `kunion validate --go-types examples/go` attaches these unions to the
// Backup CRD: the root type is matched by kind, fields by their json tags.
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true
type Backup struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec BackupSpec `json:"spec,omitempty"`
}

type BackupSpec struct {
	Destination Destination `json:"destination"`
	Schedule    Schedule    `json:"schedule,omitempty"`
	// +optional
	Retention *int32 `json:"retention,omitempty"`
}

// +enum
type DestinationType string

const (
	DestinationS3       DestinationType = "S3"
	DestinationGCS      DestinationType = "GCS"
	DestinationPVC      DestinationType = "PVC"
	DestinationDisabled DestinationType = "Disabled"
)

type Destination struct {
	// +unionDiscriminator
	// +required
	Type DestinationType `json:"type"`
	// +unionMember
	// +optional
	S3 *S3Destination `json:"s3,omitempty"`
	// +unionMember=GCS
	// +optional
	GCS *GCSDestination `json:"gcs,omitempty"`
	// +unionMember,optional
	// +optional
	PVC *PVCDestination `json:"pvc,omitempty"`
}

// Schedule says when a backup runs: by cron or at an interval, exactly one.
// The marker belongs above the type, where controller-gen reads it.
// +kubebuilder:validation:ExactlyOneOf=cron;interval
type Schedule struct {
	// +optional
	Cron string `json:"cron,omitempty"`
	// +optional
	Interval string `json:"interval,omitempty"`
}

type S3Destination struct {
	Bucket string `json:"bucket"`
	Region string `json:"region,omitempty"`
}

type GCSDestination struct {
	Bucket string `json:"bucket"`
}

type PVCDestination struct {
	ClaimName string `json:"claimName"`
}
