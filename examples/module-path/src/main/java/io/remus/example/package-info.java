/**
 * The README's remus-core example as a user's code: {@link io.remus.example.ReadmeExample}.
 */
package io.remus.example;
