/**
 * The lock suite across processes and hosts: every node its own JVM with its own device context
 * (three on one device, or one per guest of {@code softroce/run-cluster}).
 */
package io.remus.alock.cluster;
