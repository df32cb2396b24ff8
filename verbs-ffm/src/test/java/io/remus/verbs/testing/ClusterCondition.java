package io.remus.verbs.testing;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The JUnit extension behind {@link ClusterTest}: disables the test with
 * {@link ClusterTests#SKIP_REASON} outside a cluster. Partial or inconsistent cluster variables
 * fail the test (the exception propagates from the condition).
 */
public final class ClusterCondition implements ExecutionCondition {
    /** Creates the extension (JUnit instantiates it). */
    public ClusterCondition() {
    }

    /** Enabled only where the cluster variables are set. */
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        return ClusterTests.configuredNode()
                .map(node -> ConditionEvaluationResult.enabled("node " + node.index() + " of " + node.size()))
                .orElseGet(() -> ConditionEvaluationResult.disabled(ClusterTests.SKIP_REASON));
    }
}
