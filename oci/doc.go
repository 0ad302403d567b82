// Package oci stores skills bundles in OCI registries and fetches them
// back, through oras-go (oras.land/oras-go/v2), which speaks the
// distribution protocol: authentication, retries, referrers and the
// tag-schema fallback for registries without the referrers API.
//
// # The artifact
//
// A bundle is an OCI image manifest of artifact type ArtifactType. Its
// config (ConfigType) is the bundle's public description (Config), which a
// fetch requires to agree with the manifest. Its
// first layer is the bundle manifest, the exact bytes signatures cover;
// the other layers carry the distinct non-empty files in the order a
// bundle writer stores them (first use: skills by URI, files in manifest
// order), one file a layer (BlobType, titled blobs/sha256/<hex>) or, for
// bundles of more than maxLayers files, neighbouring files packed together
// (PackType: a tar+gzip that oras's file store unpacks into
// packs/<first hex>/<hex>), cut where a file's digest says. Signatures are
// one referrer artifact (SignaturesType, the media type of its config too)
// whose subject is the bundle artifact.
//
// # Invariants
//
//   - The same bundle always gives the same artifact, byte for byte: no
//     clock, machine or order of uploads enters it (a pack's tar and gzip
//     headers carry no time, owner or name). Pushing it again sends no blob
//     the registry holds.
//   - What plain `oras pull` writes is manifest.json and every non-empty
//     file of the bundle under the name of its sha256; no two layers share
//     a title or a folder.
//   - Every byte fetched is checked against a digest before use: the image
//     manifest against the digest asked for (a tag is resolved once), the
//     config, the manifest and each layer against their descriptors (size
//     and sha256, with no byte read past the size), each file against the
//     manifest. A pack is read strictly (readPack): regular files only,
//     named by their sha256, in the manifest's order, inflated no further
//     than a pack may hold.
//   - A fetch writes one file, the reassembled bundle, into the cache
//     (CachePath), atomically; on any error the cache is as it was. A
//     cached bundle is used without asking the registry when the reference
//     is a digest.
//   - With trusted keys, signatures are checked against the manifest before
//     any file is fetched.
//   - Credentials come from the environment or the docker and Podman
//     configuration, go only to the registry's origin (oras-go drops them
//     on a redirect elsewhere), and appear in no log line or error.
//   - Plain http is refused for any registry that is neither on loopback
//     nor named as insecure.
//
// A ToolHive skill artifact (ToolHiveArtifactType) is accepted too: its
// tar+gzip layer is read strictly into memory and built, by package build,
// into a one-skill bundle in the cache; nothing else is written.
package oci
