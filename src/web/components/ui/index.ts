/** The shared UI kit. Features build their screens from these, not from raw Radix. */
export { cn } from './cn';
export { Button, buttonClasses, type ButtonProps, type ButtonVariant, type ButtonSize } from './button';
export { Input, Textarea, Select, Checkbox } from './input';
export { FileButton, type FileButtonProps } from './file-button';
export { FormField, Label, FieldError, useFieldControl, type FormFieldProps } from './form-field';
export { Dialog, ConfirmDialog, Sheet, DialogClose, type DialogProps, type ConfirmDialogProps } from './dialog';
export {
  DropdownMenu,
  DropdownMenuTrigger,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuGroup,
} from './dropdown-menu';
export { Table, THead, TBody, Tr, Th, Td } from './table';
export { Pagination, pageWindow } from './pagination';
export { Badge, type BadgeTone } from './badge';
export { Card, Panel } from './card';
export { Tabs, TabsList, TabsTrigger, TabsContent } from './tabs';
export { Toaster, toast, type ToastOptions } from './toast';
export { Skeleton, SkeletonText } from './skeleton';
export { EmptyState } from './empty-state';
export { Notice, Alert, type NoticeTone } from './notice';
export { Spinner } from './spinner';
export { PageHeader } from './page-header';
export { VisuallyHidden } from './visually-hidden';
export { Money, CurrencyContext, useCurrency, formatCents } from './money';
export { Logo } from './logo';
export { Switch } from './switch';
export { CopyableCode } from './copyable-code';
export { StickyActionBar, type StickyActionBarProps } from './sticky-action-bar';
export { GradeBadge, PhysicalPhotos } from './grade-badge';
export { ShareButton } from './share-button';
