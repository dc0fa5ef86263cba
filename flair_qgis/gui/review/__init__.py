"""Review tab: create a review, judge items one key per verdict, and read its report."""
