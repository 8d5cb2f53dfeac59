// Package validate checks the Kubernetes manifests under deploy/kubernetes
// against the Kubernetes API's own Go types, offline: every document is
// decoded strictly (an unknown or misspelt field, a wrong type or a missing
// kind fails), then held to what running gpuscout for a team needs.
package validate

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

const dir = "../kubernetes"

type meta struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
}

// decode reads every manifest strictly into its API type.
func decode(t *testing.T) map[string]any {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests in %s: %v", dir, err)
	}
	objs := map[string]any{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, doc := range bytes.Split(raw, []byte("\n---")) {
			if len(bytes.TrimSpace(doc)) == 0 {
				continue
			}
			var m meta
			if err := yaml.Unmarshal(doc, &m); err != nil {
				t.Fatalf("%s document %d: %v", f, i+1, err)
			}
			var obj any
			switch m.APIVersion + " " + m.Kind {
			case "apps/v1 Deployment":
				obj = &appsv1.Deployment{}
			case "v1 Service":
				obj = &corev1.Service{}
			case "v1 PersistentVolumeClaim":
				obj = &corev1.PersistentVolumeClaim{}
			case "batch/v1 CronJob":
				obj = &batchv1.CronJob{}
			case "kustomize.config.k8s.io/v1beta1 Kustomization":
				obj = &kustomization{}
			default:
				t.Fatalf("%s document %d: unexpected %s %s", f, i+1, m.APIVersion, m.Kind)
			}
			if err := yaml.UnmarshalStrict(doc, obj); err != nil {
				t.Fatalf("%s document %d (%s): %v", f, i+1, m.Kind, err)
			}
			objs[m.Kind] = obj
		}
	}
	return objs
}

type kustomization struct {
	APIVersion string   `json:"apiVersion"`
	Kind       string   `json:"kind"`
	Resources  []string `json:"resources"`
}

func TestManifests(t *testing.T) {
	objs := decode(t)
	for _, kind := range []string{"Deployment", "Service", "PersistentVolumeClaim", "CronJob", "Kustomization"} {
		if objs[kind] == nil {
			t.Fatalf("deploy/kubernetes has no %s", kind)
		}
	}
	k := objs["Kustomization"].(*kustomization)
	for _, r := range k.Resources {
		if _, err := os.Stat(filepath.Join(dir, r)); err != nil {
			t.Errorf("kustomization lists %s: %v", r, err)
		}
	}

	d := objs["Deployment"].(*appsv1.Deployment)
	if d.Spec.Replicas == nil || *d.Spec.Replicas < 2 {
		t.Error("the Deployment runs fewer than two replicas")
	}
	if !labelsMatch(d.Spec.Selector.MatchLabels, d.Spec.Template.Labels) {
		t.Error("the Deployment's selector does not select its pods")
	}
	c := d.Spec.Template.Spec.Containers[0]
	for _, p := range []*corev1.Probe{c.ReadinessProbe, c.LivenessProbe} {
		if p == nil || p.HTTPGet == nil || p.HTTPGet.Path != "/healthz" {
			t.Errorf("%s: readiness and liveness must GET /healthz", c.Name)
		}
	}
	args := strings.Join(c.Args, " ")
	for _, want := range []string{"serve", "--addr=0.0.0.0:8080", "--db=/snapshot/gpuscout.db", "--db-read-only", "--watch="} {
		if !strings.Contains(args, want) {
			t.Errorf("server args %q lack %s", args, want)
		}
	}
	if !mountedReadOnly(c, d.Spec.Template.Spec.Volumes, "/snapshot") {
		t.Error("the replicas must mount the snapshot read-only")
	}
	checkHardened(t, "Deployment", d.Spec.Template.Spec)

	s := objs["Service"].(*corev1.Service)
	if !labelsMatch(s.Spec.Selector, d.Spec.Template.Labels) {
		t.Error("the Service does not select the Deployment's pods")
	}

	cj := objs["CronJob"].(*batchv1.CronJob)
	if cj.Spec.ConcurrencyPolicy != batchv1.ForbidConcurrent {
		t.Error("two price updates may run at once: set concurrencyPolicy Forbid")
	}
	pod := cj.Spec.JobTemplate.Spec.Template.Spec
	if len(pod.InitContainers) != 1 || !slices.Contains(pod.InitContainers[0].Args, "update") {
		t.Error("the CronJob must update prices first (init container)")
	}
	if len(pod.Containers) != 1 || !slices.Contains(pod.Containers[0].Args, "publish") ||
		!slices.Contains(pod.Containers[0].Args, "--to=/snapshot/gpuscout.db") {
		t.Error("the CronJob must publish the snapshot the replicas read")
	}
	checkHardened(t, "CronJob", pod)
	pvc := objs["PersistentVolumeClaim"].(*corev1.PersistentVolumeClaim)
	if !slices.Contains(pvc.Spec.AccessModes, corev1.ReadWriteMany) {
		t.Error("the snapshot volume must be ReadWriteMany: one writer, many readers on different nodes")
	}
}

func labelsMatch(sel, labels map[string]string) bool {
	if len(sel) == 0 {
		return false
	}
	for k, v := range sel {
		if labels[k] != v {
			return false
		}
	}
	return true
}

func mountedReadOnly(c corev1.Container, vols []corev1.Volume, path string) bool {
	for _, m := range c.VolumeMounts {
		if m.MountPath != path || !m.ReadOnly {
			continue
		}
		for _, v := range vols {
			if v.Name == m.Name && v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ReadOnly {
				return true
			}
		}
	}
	return false
}

// checkHardened: non-root, no privilege escalation, read-only root, no
// capabilities — the image runs as user 65532 and needs none of them.
func checkHardened(t *testing.T, what string, pod corev1.PodSpec) {
	t.Helper()
	if pod.SecurityContext == nil || pod.SecurityContext.RunAsNonRoot == nil || !*pod.SecurityContext.RunAsNonRoot {
		t.Errorf("%s: pods must run as non-root", what)
	}
	for _, c := range append(slices.Clone(pod.InitContainers), pod.Containers...) {
		sc := c.SecurityContext
		name := fmt.Sprintf("%s container %s", what, c.Name)
		if sc == nil || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation ||
			sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem ||
			sc.Capabilities == nil || !slices.Contains(sc.Capabilities.Drop, "ALL") {
			t.Errorf("%s: needs allowPrivilegeEscalation false, readOnlyRootFilesystem true, capabilities drop ALL", name)
		}
	}
}

// TestStrictDecodingCatchesMistakes: the checker is strict — a misspelt
// field is an error, not silently dropped.
func TestStrictDecodingCatchesMistakes(t *testing.T) {
	bad := []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec:\n  replica: 3\n")
	if err := yaml.UnmarshalStrict(bad, &appsv1.Deployment{}); err == nil {
		t.Error("a misspelt field (replica) was accepted")
	}
}
